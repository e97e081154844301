package course

import (
	"fmt"
	"math"
	"strconv"

	"github.com/peakload/workshop/internal/given/messages"
)

// A tolerance is one value: it judges a figure (Holds) and writes itself
// into the claim's tolerance line in the learner's language (In), so the
// number a verdict is judged by is typed once, where the value is declared
// (CONTRIBUTING.md, step 4; TestToleranceFiguresComeFromTheirValues).
// Figures are written the English way in both languages, as everything the
// CLI prints (docs/vi/glossary.md).

// In writes the band in language l: "between 0.55 and 0.95".
func (b Band) In(l messages.Lang) string {
	lo, hi := b.figures()
	return l.T("tol.between", lo, hi)
}

func (b Band) String() string { return b.In(messages.English) }

// HoldsFor says whether x lies in the band scaled by unit (x within
// 0.8–1.2× what the workload implies).
func (b Band) HoldsFor(x, unit float64) bool { return x >= b.Lo*unit && x <= b.Hi*unit }

// Dash writes the band as a range, "0.7–1.3", in every language.
func (b Band) Dash() Said { lo, hi := b.figures(); return Said(lo + "–" + hi) }

// Interval writes the band as an interval, "[0.95, 1.05]".
func (b Band) Interval() Said { lo, hi := b.figures(); return Said("[" + lo + ", " + hi + "]") }

// Spread writes a band around its middle as the share it allows either
// way: 0.7–1.3 is "±30 %".
func (b Band) Spread() Said {
	return Said(fmt.Sprintf("±%.0f %%", 100*(b.Hi-b.Lo)/(b.Hi+b.Lo)))
}

// figures writes both bounds alike: a whole bound beside a fractional one
// keeps its ".0" ("between 1.0 and 1.25").
func (b Band) figures() (lo, hi string) {
	lo, hi = figure(b.Lo, b.Places), figure(b.Hi, b.Places)
	if whole(b.Lo) != whole(b.Hi) {
		if whole(b.Lo) {
			lo = figure(b.Lo, 1)
		} else {
			hi = figure(b.Hi, 1)
		}
	}
	return lo, hi
}

// Bound is a one-sided tolerance: a figure must be ≥, ≤, > or < V.
type Bound struct {
	Op     string // "≥", "≤", ">" or "<"
	V      float64
	Places int // decimals written; 0: as few as V needs (1 writes 1.0 as "1.0")
}

// AtLeast, AtMost, Above and Below are the bounds x ≥ v, x ≤ v, x > v, x < v.
func AtLeast(v float64) Bound { return Bound{Op: "≥", V: v} }
func AtMost(v float64) Bound  { return Bound{Op: "≤", V: v} }
func Above(v float64) Bound   { return Bound{Op: ">", V: v} }
func Below(v float64) Bound   { return Bound{Op: "<", V: v} }

// Holds says whether x keeps the bound.
func (b Bound) Holds(x float64) bool { return b.HoldsFor(x, 1) }

// HoldsFor says whether x keeps the bound scaled by unit: "≥ 10× that"
// holds x ≥ 10 × unit.
func (b Bound) HoldsFor(x, unit float64) bool {
	v := b.V * unit
	switch b.Op {
	case "≥":
		return x >= v
	case "≤":
		return x <= v
	case ">":
		return x > v
	case "<":
		return x < v
	}
	panic("course.Bound: no comparison " + strconv.Quote(b.Op))
}

// In writes the bound, "≥ 0.95", the same in every language.
func (b Bound) In(messages.Lang) string { return b.Op + " " + string(b.Figure()) }

func (b Bound) String() string { return b.In(messages.English) }

// Times writes the bound as a multiple, "≥ 0.9×".
func (b Bound) Times() Said { return Said(b.In(messages.English) + "×") }

// Percent writes the bound's value as a share, "15%" for 0.15.
func (b Bound) Percent() Said {
	return Said(figure(math.Round(b.V*100*1e6)/1e6, b.Places) + "%")
}

// Figure writes the bound's value alone, for a sentence that puts words
// between the comparison and its figure.
func (b Bound) Figure() Said { return Said(figure(b.V, b.Places)) }

// Factor is a number a tolerance is built from that is no comparison
// itself: a factor of ours, a cap, a slack.
type Factor float64

// In writes the number, the same in every language.
func (f Factor) In(messages.Lang) string { return figure(float64(f), 0) }

// Fixed writes v with places decimals: a figure a tolerance is computed
// from (the author's whole percent ± 0.5), written as the line needs it.
func Fixed(v float64, places int) Said { return Said(figure(v, places)) }

// Said is a piece of a tolerance line written the same in every language.
type Said string

// In is the piece itself.
func (s Said) In(messages.Lang) string { return string(s) }

func figure(v float64, places int) string {
	if places > 0 {
		return strconv.FormatFloat(v, 'f', places, 64)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

func whole(v float64) bool { return v == math.Trunc(v) }
