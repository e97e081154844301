package report

import (
	"fmt"

	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/result"
)

// slideValue is what a slide's bars read from each run, by the figure its
// manifest entry names.
func slideValue(f course.Figure) func(x *result.Run) float64 {
	switch f {
	case course.ReqPerSec:
		return func(x *result.Run) float64 { return x.RPS }
	case course.DBQueries:
		return dbQueries
	case course.RedisBytes:
		return redisBytes
	}
	return func(x *result.Run) float64 { return x.Extra[result.Key(f)] } // a step-specific figure: course.Figure names its key
}

// SlideChart draws step r.Step's slide chart (its manifest entry's Slide),
// or "" when the step has none or its runs lack the variants it shows.
func SlideChart(r *result.Result) string {
	step, _ := course.Get(r.Step)
	f := step.Slide
	if len(f.Variants) == 0 {
		return ""
	}
	value := slideValue(f.Figure)
	vals := make([]float64, len(f.Variants))
	for i, v := range f.Variants {
		x := find(r, v)
		if x == nil {
			return ""
		}
		vals[i] = value(x)
	}
	const width, left, right, top, row = 1000.0, 320.0, 40.0, 130.0, 110.0
	all := append([]float64{}, vals...)
	var mark float64
	if f.Mark != nil {
		mark = f.Mark.Of(vals[0])
		all = append(all, mark)
	}
	a := newAxis(all, left, width-right-150, false)
	bottom := top + row*float64(len(vals))
	h := bottom + 110
	var s svg
	s.f(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %.0f %.0f" width="%.0f" height="%.0f" font-family="Helvetica, Arial, sans-serif" font-size="30">`, width, h, width, h)
	s.f(`<rect width="100%%" height="100%%" fill="white"/>`)
	s.text(10, 44, "start", ` font-weight="bold" font-size="36"`, f.Message)
	scale := ""
	if a.log {
		scale = " (log scale)"
	}
	s.text(10, 90, "start", ` fill="#444" font-size="26"`, f.Label+scale+", ours")
	s.grid(a, top, bottom, 32, 24)
	for i, v := range vals {
		y := top + row*float64(i)
		s.text(left-14, y+row/2+10, "end", "", string(f.Variants[i]))
		if v <= 0 {
			s.text(a.x0+8, y+row/2+10, "start", ` fill="#888"`, "–")
			continue
		}
		w := max(a.x(v)-a.x0, 2)
		s.f(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"/>`, a.x0, y+25, w, row-50, barColor)
		s.text(a.x0+w+10, y+row/2+10, "start", ` font-weight="bold"`, num(v))
	}
	s.f(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#444" stroke-width="2"/>`, a.x0, top, a.x0, bottom)
	if f.Mark != nil && mark > 0 {
		y := top + row*float64(f.Mark.Row)
		x := a.x(mark)
		s.f(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="5"/>`, x, y+4, x, y+row-4, markColor)
		// the legend under the axis: a label beside the mark would run into the bars
		s.f(`<line x1="12" y1="%.1f" x2="12" y2="%.1f" stroke="%s" stroke-width="5"/>`, bottom+70, bottom+98, markColor)
		s.text(26, bottom+94, "start", ` fill="`+markColor+`" font-size="26" font-weight="bold"`,
			f.Mark.Source+": "+f.Mark.Quote+" — its ratio applied to "+string(f.Variants[0]))
	}
	s.f(`</svg>`)
	return s.String()
}

// slideName is the file a deck includes for step n's slide chart.
func slideName(n int) string { return fmt.Sprintf("step-%d-slide.svg", n) }
