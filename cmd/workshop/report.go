package main

import (
	"encoding/json"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"strings"

	"github.com/peakload/workshop/internal/bench"
	"github.com/peakload/workshop/internal/scenario"
)

// runReport draws one SVG bar chart per step from its latest result —
// req/s per variant, with the claims' verdicts underneath — for the slides.
func runReport() error {
	dir := filepath.Join(resultsDir(), "report")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	n := 0
	for _, step := range scenario.All() {
		b, err := os.ReadFile(filepath.Join(resultsDir(), fmt.Sprintf("step-%d", step.N), "latest.json"))
		if err != nil {
			continue
		}
		var r bench.Result
		if err := json.Unmarshal(b, &r); err != nil {
			return fmt.Errorf("step %d: %w", step.N, err)
		}
		path := filepath.Join(dir, fmt.Sprintf("step-%d.svg", step.N))
		if err := os.WriteFile(path, []byte(chart(&r)), 0o644); err != nil {
			return err
		}
		fmt.Println("wrote", path)
		n++
	}
	if n == 0 {
		return fmt.Errorf("no results yet: run `make step-N bench` first")
	}
	return nil
}

func chart(r *bench.Result) string {
	const w, bar, left = 760, 28, 190
	peak := 1.0
	for _, x := range r.Runs {
		peak = max(peak, x.RPS)
	}
	h := 60 + len(r.Runs)*(bar+10) + 22*len(r.Claims) + 20
	var s strings.Builder
	fmt.Fprintf(&s, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="13">`, w, h)
	fmt.Fprintf(&s, `<text x="10" y="24" font-size="16" font-weight="bold">step %d — %s: req/s (%s, %d CPUs)</text>`,
		r.Step, html.EscapeString(r.Slug), r.StartedAt.Format("2006-01-02 15:04 UTC"), r.Machine.CPUs)
	y := 44
	for _, x := range r.Runs {
		length := int(float64(w-left-120) * x.RPS / peak)
		fmt.Fprintf(&s, `<text x="10" y="%d">%s</text><rect x="%d" y="%d" width="%d" height="%d" fill="#4a7bd0"/><text x="%d" y="%d">%.0f</text>`,
			y+bar/2+5, html.EscapeString(x.Variant+" ("+x.Tool+")"), left, y, max(length, 1), bar, left+length+6, y+bar/2+5, x.RPS)
		y += bar + 10
	}
	y += 10
	for _, c := range r.Claims {
		v, color := "not measured", "#777"
		if c.Reproduced != nil {
			v, color = "NOT reproduced", "#b03030"
			if *c.Reproduced {
				v, color = "reproduced", "#2a8a2a"
			}
		}
		fmt.Fprintf(&s, `<text x="10" y="%d"><tspan font-weight="bold">%s</tspan> <tspan fill="%s">%s</tspan> — %s</text>`,
			y, html.EscapeString(c.ID), color, v, html.EscapeString(truncate(c.Measured, 95)))
		y += 22
	}
	s.WriteString(`</svg>`)
	return s.String()
}

func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
