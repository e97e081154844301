// Package report draws the results of the benches — charts of each step's
// runs, the article's figures beside ours, the claims' verdicts — as SVG and
// HTML that need nothing but a browser: the self-contained page of
// `make report` and the generated figures the slide decks include.
//
// The SVG is written by hand rather than with a plotting library: the charts
// are horizontal bars with value labels and one reference mark, which is a
// few dozen lines here, and the output must be byte-for-byte deterministic
// (the committed slide figures are tested against what this package draws
// from results/reference).
package report

import (
	"fmt"
	"html"
	"math"
	"strings"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/result"
)

const (
	font      = `font-family="Helvetica, Arial, sans-serif" font-size="13"`
	barColor  = "#4a7bd0"
	markColor = "#c0392b"
	gridColor = "#dddddd"
	okColor   = "#1e7b34"
	badColor  = "#b03030"
)

// axis maps values onto [x0, x1] pixels, linearly from 0 or logarithmically
// between decades when the values span more than a decade and a half.
type axis struct {
	lo, hi float64
	log    bool
	x0, x1 float64
}

func newAxis(vals []float64, x0, x1 float64, forceLog bool) axis {
	lo, hi := math.Inf(1), 0.0
	for _, v := range vals {
		if v > 0 {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if hi == 0 {
		return axis{lo: 0, hi: 1, x0: x0, x1: x1}
	}
	if forceLog || hi/lo > 30 {
		return axis{lo: math.Pow(10, math.Floor(math.Log10(lo))), hi: math.Pow(10, math.Ceil(math.Log10(hi)+1e-9)), log: true, x0: x0, x1: x1}
	}
	return axis{lo: 0, hi: niceCeil(hi * 1.05), x0: x0, x1: x1}
}

// niceCeil rounds up to 1, 2, 2.5 or 5 times a power of ten.
func niceCeil(v float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}

func (a axis) x(v float64) float64 {
	if a.log {
		v = max(v, a.lo)
		return a.x0 + (a.x1-a.x0)*(math.Log10(v)-math.Log10(a.lo))/(math.Log10(a.hi)-math.Log10(a.lo))
	}
	return a.x0 + (a.x1-a.x0)*(v-a.lo)/(a.hi-a.lo)
}

func (a axis) ticks() []float64 {
	var t []float64
	if a.log {
		for v := a.lo; v <= a.hi*1.0001; v *= 10 {
			t = append(t, v)
		}
		return t
	}
	step := a.hi / 4
	if a.hi/5 == niceCeil(a.hi/5) {
		step = a.hi / 5
	}
	for v := 0.0; v <= a.hi*1.0001; v += step {
		t = append(t, v)
	}
	return t
}

// num formats a figure for a label: three significant digits, thousands
// separated by a thin space.
func num(v float64) string {
	switch {
	case v == 0:
		return "0"
	case math.Abs(v) >= 1000:
		return result.Grouped(v, "\u2009") // a thin space: the SVG's labels
	case math.Abs(v) >= 100:
		return fmt.Sprintf("%.0f", v)
	case math.Abs(v) >= 10:
		return fmt.Sprintf("%.1f", v)
	case math.Abs(v) >= 1:
		return fmt.Sprintf("%.2f", v)
	default:
		return fmt.Sprintf("%.2g", v)
	}
}

// tick formats an axis tick: whole numbers without decimals.
func tick(v float64) string {
	if v >= 1000 {
		return fmt.Sprintf("%gk", v/1000)
	}
	return fmt.Sprintf("%g", v)
}

type svg struct{ strings.Builder }

func (s *svg) f(format string, args ...any) { fmt.Fprintf(&s.Builder, format, args...) }

func (s *svg) text(x, y float64, anchor, attrs, t string) {
	s.f(`<text x="%.1f" y="%.1f" text-anchor="%s"%s>%s</text>`, x, y, anchor, attrs, html.EscapeString(t))
}

// grid draws a's ticks as vertical lines from top to bottom, each labelled
// dy below the bottom in type of the given size.
func (s *svg) grid(a axis, top, bottom, dy float64, size int) {
	for _, t := range a.ticks() {
		x := a.x(t)
		s.f(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s"/>`, x, top, x, bottom, gridColor)
		s.text(x, bottom+dy, "middle", fmt.Sprintf(` fill="#444" font-size="%d"`, size), tick(t))
	}
}

// panel draws one column of horizontal bars sharing the rows' labels.
func (s *svg) panel(title string, vals []float64, x0, x1, top, row float64, forceLog bool, mark map[int]float64) {
	a := newAxis(vals, x0, x1-48, forceLog)
	scale := "linear"
	if a.log {
		scale = "log scale"
	}
	s.text(x0, top-22, "start", ` font-weight="bold"`, title)
	s.text(x0, top-8, "start", ` fill="#666" font-size="11"`, scale)
	bottom := top + row*float64(len(vals))
	s.grid(a, top, bottom, 14, 11)
	for i, v := range vals {
		y := top + row*float64(i)
		if v <= 0 {
			s.text(a.x0+4, y+row/2+4, "start", ` fill="#888"`, "–")
			continue
		}
		w := max(a.x(v)-a.x0, 1)
		s.f(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"/>`, a.x0, y+3, w, row-6, barColor)
		s.text(a.x0+w+4, y+row/2+4, "start", "", num(v))
	}
	s.f(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#444"/>`, a.x0, top, a.x0, bottom)
}

// RunsChart draws a step's runs side by side: req/s, p99 latency and the
// per-request counter that proves the step's mechanism, one row per variant.
func RunsChart(r *result.Result) string {
	spec := Steps[r.Step]
	const left, width, row, top = 170.0, 880.0, 28.0, 46.0
	n := len(r.Runs)
	h := top + row*float64(n) + 30
	var s svg
	s.f(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %.0f %.0f" width="%.0f" height="%.0f" %s>`, width, h, width, h, font)
	s.f(`<rect width="100%%" height="100%%" fill="white"/>`)
	rpsV, p99, ctr := make([]float64, n), make([]float64, n), make([]float64, n)
	for i, x := range r.Runs {
		rpsV[i], p99[i] = x.RPS, x.Latency.P99
		if spec.Counter.Value != nil {
			ctr[i] = spec.Counter.Value(&r.Runs[i])
		}
		label := string(x.Variant)
		if x.Tool != "go" && x.Tool != "" {
			label += " (" + x.Tool + ")"
		}
		s.text(left-8, top+row*float64(i)+row/2+4, "end", "", label)
	}
	colW := (width - left) / 3
	s.panel("throughput, req/s", rpsV, left, left+colW, top, row, false, nil)
	s.panel("p99 latency, ms", p99, left+colW+10, left+2*colW, top, row, false, nil)
	if spec.Counter.Value != nil {
		s.panel(spec.Counter.Label, ctr, left+2*colW+10, width, top, row, false, nil)
	}
	s.f(`</svg>`)
	return s.String()
}

// RatiosChart sets the article's figures (red marks) beside ours (bars) on
// one log axis of ratios, with each claim's verdict; "" when the step has
// no figure our runs can be compared with.
func RatiosChart(r *result.Result) string {
	spec := Steps[r.Step]
	if len(spec.Ratios) == 0 {
		return ""
	}
	const left, right, width, row, top = 400.0, 130.0, 900.0, 40.0, 30.0
	vals := []float64{1}
	for _, q := range spec.Ratios {
		vals = append(vals, q.Ours(r), q.Article, max(q.High, q.Article))
	}
	a := newAxis(vals, left, width-right-30, true)
	n := len(spec.Ratios)
	h := top + row*float64(n) + 40
	var s svg
	s.f(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %.0f %.0f" width="%.0f" height="%.0f" %s>`, width, h, width, h, font)
	s.f(`<rect width="100%%" height="100%%" fill="white"/>`)
	s.text(left, 16, "start", ` font-weight="bold"`, "ratio, log scale (1 = no change)")
	s.f(`<rect x="%.0f" y="6" width="12" height="10" fill="%s"/>`, left+250, barColor)
	s.text(left+266, 16, "start", "", "ours")
	s.f(`<path d="M%.0f 6 l5 5 l-5 5 l-5 -5 z" fill="%s"/>`, left+320, markColor)
	s.text(left+330, 16, "start", "", "the article")
	bottom := top + row*float64(n)
	s.grid(a, top, bottom, 14, 11)
	x1 := a.x(1)
	s.f(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#444"/>`, x1, top, x1, bottom)
	for i, q := range spec.Ratios {
		y := top + row*float64(i)
		s.text(8, y+row/2+4, "start", ` font-weight="bold"`, q.Claim)
		s.text(66, y+row/2+4, "start", "", q.What)
		if q.Low > 0 {
			s.f(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s" fill-opacity="0.18"/>`, a.x(q.Low), y+2, a.x(q.High)-a.x(q.Low), row-4, markColor)
		}
		if v := q.Ours(r); v > 0 {
			xa, xb := min(x1, a.x(v)), max(x1, a.x(v))
			s.f(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"/>`, xa, y+row/2-2, max(xb-xa, 1), 12.0, barColor)
			s.text(a.x(v)+map[bool]float64{true: 6, false: -6}[v >= 1], y+row/2+8, map[bool]string{true: "start", false: "end"}[v >= 1], "", "×"+num(v))
		}
		xm := a.x(q.Article)
		s.f(`<path d="M%.1f %.1f l5 5 l-5 5 l-5 -5 z" fill="%s"/>`, xm, y+3, markColor)
		if xm+8+6.5*float64(len([]rune(q.Quote))) < width-right { // the label after the mark, or before it near the verdicts
			s.text(xm+8, y+12, "start", ` fill="`+markColor+`" font-size="11"`, q.Quote)
		} else {
			s.text(xm-8, y+12, "end", ` fill="`+markColor+`" font-size="11"`, q.Quote)
		}
		v, c := verdict(claimOf(r, q.Claim))
		s.text(width-right+10, y+row/2+4, "start", ` font-weight="bold" fill="`+c+`"`, v)
	}
	s.f(`</svg>`)
	return s.String()
}

func claimOf(r *result.Result, id string) *result.Claim {
	for i := range r.Claims {
		if r.Claims[i].ID == id {
			return &r.Claims[i]
		}
	}
	return nil
}

// verdict words a claim's outcome and its colour, in English: the charts
// and the slides' figures print it, and the English decks include them.
func verdict(c *result.Claim) (string, string) { return verdictIn(messages.English, c) }

// verdictIn is verdict in language l, for the report's page.
func verdictIn(l messages.Lang, c *result.Claim) (string, string) {
	switch {
	case c != nil && c.Busy != "":
		return l.T("report.verdict.busy"), "#777777"
	case c != nil && c.NotJudged != "":
		return l.T("report.verdict.tool"), "#777777"
	case c != nil && c.Unjudged != "":
		return l.T("report.verdict.unjudged"), "#777777"
	case c == nil || c.Reproduced == nil:
		return l.T("report.verdict.not_measured"), "#777777"
	case *c.Reproduced:
		return l.T("report.verdict.reproduced"), okColor
	default:
		return l.T("report.verdict.not_reproduced"), badColor
	}
}
