package scenario

import (
	"fmt"
	"math"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/result"
)

// A step's Ours writes its cell of README.md's step table, "ours (reference
// run)": the figure that proves the step's mechanism, computed from its
// reference run by `make docs`. It is declared beside the step's claims, so
// adding a step touches no generator; a run that lacks a row prints NaN
// or "–", never a stale figure. It writes the cell in the language of the
// file that shows it (README.md or README.vi.md), through Say.

// RPS is r's req/s on variant v, NaN when r has no such run.
func RPS(r *result.Result, v course.Variant) float64 {
	if x := find(r, v); x != nil {
		return x.RPS
	}
	return math.NaN()
}

// Field is f of run x, NaN when there is no run.
func Field(x *result.Run, f func(*result.Run) float64) float64 {
	if x == nil {
		return math.NaN()
	}
	return f(x)
}

// Times writes a ÷ b as a factor: "1.25×".
func Times(a, b float64) string { return fmt.Sprintf("%.2f×", a/b) }

// Rate writes a rate as people read it: 1 537, 41 407 ("–" when not measured).
func Rate(v float64) string {
	if math.IsNaN(v) {
		return "–"
	}
	return result.Grouped(v, " ")
}

// Say is en or vi, as language l reads, filled with the same args: a
// step's Ours writes its two languages beside each other, so their figures
// cannot differ.
func Say(l messages.Lang, en, vi string, args ...any) string {
	if l == messages.Vietnamese {
		return fmt.Sprintf(vi, args...)
	}
	return fmt.Sprintf(en, args...)
}
