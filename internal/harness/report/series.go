package report

import (
	"fmt"
	"math"
	"slices"

	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/result"
)

// SeriesPanel is one counter drawn over time under a step's req/s and p99
// panels (result.Point holds the candidates).
type SeriesPanel struct {
	Label string
	Value func(p result.Point) float64
}

var (
	cpuPanel       = SeriesPanel{"server CPU, CPUs busy", func(p result.Point) float64 { return p.ServerCPU }}
	dbPanel        = SeriesPanel{"DB queries / s", func(p result.Point) float64 { return p.DBQueries }}
	redisPanel     = SeriesPanel{"Redis bytes / s", func(p result.Point) float64 { return p.RedisBytes }}
	persistedPanel = SeriesPanel{"events persisted / s", func(p result.Point) float64 { return p.Persisted }}
	queuePanel     = SeriesPanel{"events waiting in the buffer", func(p result.Point) float64 { return p.QueueDepth }}
	bodyPanel      = SeriesPanel{"response body bytes / s", func(p result.Point) float64 { return p.BodyBytes }}
)

// panels maps the manifest's panel names to what they draw.
var panels = map[course.Panel]SeriesPanel{
	course.CPUPanel: cpuPanel, course.DBPanel: dbPanel, course.RedisPanel: redisPanel,
	course.PersistedPanel: persistedPanel, course.QueuePanel: queuePanel, course.BodyPanel: bodyPanel,
}

// seriesPanels are the counters a step's series chart draws, as its entry
// in internal/harness/course declares them: the one its lesson is about, else the
// server's CPU.
func seriesPanels(step int) []SeriesPanel {
	s, _ := course.Get(step)
	var out []SeriesPanel
	for _, p := range s.Panels {
		out = append(out, panels[p])
	}
	if len(out) == 0 {
		return []SeriesPanel{cpuPanel}
	}
	return out
}

// palette tells the variants apart; a step has at most a dozen rows.
var palette = []string{"#4a7bd0", "#e07b28", "#2e9e5b", "#c0392b", "#8e5bb5", "#7f6a4a", "#d15fa8", "#555555",
	"#17a2b8", "#a8a23a", "#1f3f7a", "#b36b00"}

// SeriesChart draws what happened during each variant's run, interval by
// interval, one line per variant on a shared clock (seconds since that
// variant's load started): req/s, p99, and the step's counters. A line is
// solid inside the table's timed window and dashed outside it: the
// warm-up before, the drain after (step 6's batcher persisting what it
// accepted). "" when no run kept a series.
func SeriesChart(r *result.Result) string {
	runs := runsWithSeries(r)
	if len(runs) == 0 {
		return ""
	}
	panels := chartPanels(r.Step, runs)
	legend, top := legendPlaces(runs)
	h := top + float64(len(panels))*(panelHeight+panelGap) + 20
	var s svg
	s.f(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %.0f %.0f" width="%.0f" height="%.0f" %s>`, seriesWidth, h, seriesWidth, h, font)
	s.f(`<rect width="100%%" height="100%%" fill="white"/>`)
	s.f(`<defs><pattern id="drain" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="6" stroke="#cccccc" stroke-width="2"/></pattern></defs>`)
	drawLegend(&s, runs, legend, top)
	c := clockOf(runs)
	for i, p := range panels {
		y0 := top + panelGap + float64(i)*(panelHeight+panelGap) // the panel's top
		c.drawPanel(&s, p, runs, y0, i == 0)
	}
	s.f(`</svg>`)
	return s.String()
}

// The series chart's layout, in SVG units: its width, the margins beside
// the plots, each panel's height and the room above it for its title.
const (
	seriesWidth, seriesLeft, seriesRight = 880.0, 70.0, 20.0
	panelHeight, panelGap                = 110.0, 46.0
)

// chartPanel is one plot of the series chart: what it reads from each
// point, where a point has no value (the line breaks there), and whether
// its axis may go logarithmic.
type chartPanel struct {
	label string
	value func(p result.Point) float64
	gap   func(p result.Point) bool
	log   bool
}

// runsWithSeries are the runs that kept a series of two points or more.
func runsWithSeries(r *result.Result) []*result.Run {
	var runs []*result.Run
	for i := range r.Runs {
		if s := r.Runs[i].Series; s != nil && len(s.Points) > 1 {
			runs = append(runs, &r.Runs[i])
		}
	}
	return runs
}

// chartPanels: req/s and p99 for every step, then the step's counters,
// then the errors per interval — only when there were any (503s told to
// retry, a server gone).
func chartPanels(step int, runs []*result.Run) []chartPanel {
	panels := []chartPanel{
		{"throughput, req/s", func(p result.Point) float64 { return p.RPS }, func(p result.Point) bool { return p.NoRPS }, false},
		{"p99 latency, ms (that interval's requests)", func(p result.Point) float64 { return p.P99 }, func(p result.Point) bool { return p.P99 == 0 }, true},
	}
	for _, sp := range seriesPanels(step) {
		panels = append(panels, chartPanel{sp.Label, sp.Value, func(p result.Point) bool { return p.NoScrape }, false})
	}
	if slices.ContainsFunc(runs, func(x *result.Run) bool {
		return slices.ContainsFunc(x.Series.Points, func(p result.Point) bool { return p.Errors > 0 })
	}) {
		panels = append(panels, chartPanel{"errors (failed responses) per interval", func(p result.Point) float64 { return float64(p.Errors) },
			func(p result.Point) bool { return false }, false})
	}
	return panels
}

// legendPlaces puts one swatch per variant, wrapped onto as many lines as
// needed, and returns where each goes and the top of the plots below.
func legendPlaces(runs []*result.Run) (places [][2]float64, top float64) {
	places = make([][2]float64, len(runs))
	x, y := seriesLeft, 14.0
	for i, run := range runs {
		w := 18 + 7.5*float64(len([]rune(run.Variant))) + 16
		if x+w > seriesWidth-seriesRight && x > seriesLeft {
			x, y = seriesLeft, y+16
		}
		places[i] = [2]float64{x, y}
		x += w
	}
	return places, y + 30
}

// drawLegend draws the variants' swatches, then the key to the line
// styles and bands just above the first panel.
func drawLegend(s *svg, runs []*result.Run, places [][2]float64, top float64) {
	for i, run := range runs {
		x, y := places[i][0], places[i][1]
		s.f(`<rect x="%.1f" y="%.1f" width="14" height="4" fill="%s"/>`, x, y-6, palette[i%len(palette)])
		s.text(x+18, y, "start", "", string(run.Variant))
	}
	const left, key = seriesLeft, ` fill="#666" font-size="11"`
	ky := top - 15
	s.f(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#666" stroke-width="1.4" stroke-dasharray="4 3"/>`, left, ky-4, left+14, ky-4)
	s.text(left+18, ky, "start", key, "outside the timed window:")
	s.f(`<rect x="%.1f" y="%.1f" width="14" height="10" fill="#eeeeee"/>`, left+175, ky-9)
	s.text(left+193, ky, "start", key, "warm-up")
	s.f(`<rect x="%.1f" y="%.1f" width="14" height="10" fill="url(#drain)"/>`, left+250, ky-9)
	s.text(left+268, ky, "start", key, "after the load (drain)")
	s.text(seriesWidth-seriesRight, ky, "end", key, "seconds since the variant's load started")
}

// clock is the time axis every panel shares, and its bands: what every
// variant shares, the warm-up they all had (up to open) and the time after
// every window had closed (from closeAt; +Inf: no drain).
type clock struct {
	xa                  axis
	step                float64 // seconds between the axis's ticks
	tmax, open, closeAt float64
}

// clockOf ends the time axis at the last point, on a round step.
func clockOf(runs []*result.Run) clock {
	var tmax, open, closeAt, every = 0.0, math.Inf(1), 0.0, 0.0
	for _, run := range runs {
		ser := run.Series
		tmax = max(tmax, ser.Points[len(ser.Points)-1].T)
		open = min(open, ser.WindowS[0])
		closeAt = max(closeAt, ser.WindowS[1])
		every = max(every, ser.EveryS)
	}
	if closeAt == 0 || tmax-closeAt < every/2 { // no drain, only the last interval's rounding
		closeAt = math.Inf(1)
	}
	step := niceCeil(tmax / 6)
	xa := axis{lo: 0, hi: math.Ceil(tmax/step-1e-9) * step, x0: seriesLeft, x1: seriesWidth - seriesRight}
	return clock{xa: xa, step: step, tmax: tmax, open: open, closeAt: closeAt}
}

// drawPanel draws one panel whose top is y0: its frame, the drills'
// moments (labelled on the first panel only), then one line per variant.
func (c clock) drawPanel(s *svg, p chartPanel, runs []*result.Run, y0 float64, labels bool) {
	var vals []float64
	for _, run := range runs {
		for _, pt := range run.Series.Points {
			if !p.gap(pt) {
				vals = append(vals, p.value(pt))
			}
		}
	}
	bottom := y0 + panelHeight
	ya := linearAxis(vals, bottom, y0)
	if p.log {
		ya = newAxis(vals, bottom, y0, false)
	}
	if ya.log {
		p.label += ", log scale"
	}
	c.drawFrame(s, p.label, ya, y0)
	for _, run := range runs {
		c.drawEvents(s, run.Series.Events, y0, labels)
	}
	for j, run := range runs {
		c.drawLine(s, p, ya, run.Series, palette[j%len(palette)])
	}
}

// drawFrame draws a panel's title, the shared bands, the grid with its
// ticks and the time axis.
func (c clock) drawFrame(s *svg, label string, ya axis, y0 float64) {
	xa, bottom := c.xa, y0+panelHeight
	s.text(seriesLeft, y0-10, "start", ` font-weight="bold"`, label)
	if c.open > 0 {
		s.f(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#eeeeee"/>`, xa.x(0), y0, xa.x(c.open)-xa.x(0), panelHeight)
	}
	if !math.IsInf(c.closeAt, 1) {
		s.f(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="url(#drain)"/>`, xa.x(c.closeAt), y0, xa.x(c.tmax)-xa.x(c.closeAt), panelHeight)
	}
	for _, t := range ya.ticks() {
		y := ya.x(t)
		s.f(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s"/>`, seriesLeft, y, seriesWidth-seriesRight, y, gridColor)
		s.text(seriesLeft-6, y+4, "end", ` fill="#444" font-size="11"`, ytick(t))
	}
	for t := 0.0; t <= xa.hi+1e-9; t += c.step {
		s.text(xa.x(t), bottom+14, "middle", ` fill="#444" font-size="11"`, tick(t))
	}
	s.f(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#444"/>`, seriesLeft, bottom, seriesWidth-seriesRight, bottom)
}

// drawEvents marks a drill's moments (Redis stopped, started again) with
// a dotted line; with labels, every other label a line lower (two moments
// can be close), and before its line near the right edge.
func (c clock) drawEvents(s *svg, events []result.Event, y0 float64, labels bool) {
	for k, e := range events {
		x := c.xa.x(e.T)
		s.f(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-dasharray="2 2"/>`, x, y0, x, y0+panelHeight, markColor)
		if !labels {
			continue
		}
		lx, anchor := x+3, "start"
		if x+6*float64(len([]rune(e.What))) > seriesWidth-seriesRight {
			lx, anchor = x-3, "end"
		}
		s.text(lx, y0+11+13*float64(k%2), anchor, ` fill="`+markColor+`" font-size="11"`, e.What)
	}
}

// drawLine draws one variant's line: solid inside its timed window,
// dashed outside it (its warm-up and drain), broken where there is no
// value.
func (c clock) drawLine(s *svg, p chartPanel, ya axis, ser *result.Series, color string) {
	var solid, dashed []byte
	var prev *[2]float64
	for _, pt := range ser.Points {
		if p.gap(pt) {
			prev = nil
			continue
		}
		mid := pt.T - ser.EveryS/2 // the middle of the interval
		cur := [2]float64{c.xa.x(max(mid, 0)), ya.x(max(p.value(pt), ya.lo))}
		if prev != nil {
			seg := fmt.Appendf(nil, "M%.1f %.1f L%.1f %.1f ", prev[0], prev[1], cur[0], cur[1])
			if mid >= ser.WindowS[0] && (ser.WindowS[1] == 0 || mid <= ser.WindowS[1]) {
				solid = append(solid, seg...)
			} else {
				dashed = append(dashed, seg...)
			}
		}
		prev = &cur
	}
	if len(dashed) > 0 {
		s.f(`<path d="%s" fill="none" stroke="%s" stroke-width="1.4" stroke-dasharray="4 3"/>`, dashed[:len(dashed)-1], color)
	}
	if len(solid) > 0 {
		s.f(`<path d="%s" fill="none" stroke="%s" stroke-width="1.6" stroke-linejoin="round"/>`, solid[:len(solid)-1], color)
	}
}

// linearAxis is newAxis never on a log scale: a rate that drops to zero
// (a dead database, the end of the load) must show as zero.
func linearAxis(vals []float64, x0, x1 float64) axis {
	hi := 0.0
	for _, v := range vals {
		hi = max(hi, v)
	}
	if hi == 0 {
		return axis{lo: 0, hi: 1, x0: x0, x1: x1}
	}
	return axis{lo: 0, hi: niceCeil(hi * 1.05), x0: x0, x1: x1}
}

// ytick formats a value axis tick: k and M for the large rates.
func ytick(v float64) string {
	switch {
	case v >= 1e6:
		return fmt.Sprintf("%gM", v/1e6)
	case v >= 1000:
		return fmt.Sprintf("%gk", v/1000)
	}
	return fmt.Sprintf("%g", v)
}
