package report

import (
	"fmt"

	"github.com/peakload/workshop/internal/result"
)

// SlideFigure is what a step's slide chart shows: one message, two or three
// of the step's runs, one figure per run, and the source's figure as a mark
// where the source gives one. The report keeps the full charts (every run,
// three panels); a slide is read from the back of a room at 1024×768, so it
// shows only what its message needs, in large type.
type SlideFigure struct {
	Message  string   // the one thing the chart says, without a figure (figures come from the run)
	Label    string   // what the bars measure
	Variants []string // the runs shown, top to bottom (2–3)
	Value    func(x *result.Run) float64
	Mark     *SlideMark
}

// SlideMark is the source's figure on a slide chart: its ratio applied to
// the first run's value, drawn on the row it predicts.
type SlideMark struct {
	Row    int // the run (index into Variants) the source's ratio predicts
	Source string
	Quote  string                      // the source's figure as it words it
	Of     func(first float64) float64 // where the source's ratio puts Row, from the first run's value
}

func reqPerSec(x *result.Run) float64 { return x.RPS }

func extra(key string) func(x *result.Run) float64 {
	return func(x *result.Run) float64 { return x.Extra[key] }
}

// Slides holds each step's slide chart.
var Slides = map[int]SlideFigure{
	0: {"Reading a body: the write path's first cost", "req/s", []string{"empty-get", "empty-post"}, reqPerSec,
		&SlideMark{1, "article B", "4026 ÷ 5498", func(f float64) float64 { return f * 4026 / 5498 }}},
	1: {"The database, not the framework, sets the pace", "req/s", []string{"empty-get", "direct-db"}, reqPerSec, nil},
	2: {"A cache hit skips the query", "req/s", []string{"direct-db", "cache-aside"}, reqPerSec, nil},
	3: {"A 304 carries no body", "response body bytes / request", []string{"cache-aside-poll", "etag-poll"}, extra("body_bytes_per_req"),
		&SlideMark{1, "article A", "÷ ~4", func(f float64) float64 { return f / 4 }}},
	4: {"One load per stampede, not one per viewer", "DB queries / request", []string{"cache-aside", "singleflight"}, dbQueries, nil},
	5: {"Memory before Redis: far fewer Redis bytes", "Redis bytes / request", []string{"singleflight", "burst"}, redisBytes,
		&SlideMark{1, "article A", "÷ 5–6", func(f float64) float64 { return f / 5.5 }}},
	6: {"One round trip per batch persists more", "events persisted / s", []string{"sync", "group", "bulk"}, extra("persisted_per_s"), nil},
	7: {"Reduce before write: a fraction of the writes", "DB writes / request", []string{"sync", "bulk", "reduce"}, extra("db_writes_per_req"), nil},
	8: {"The lock narrowed: more logins per second", "logins / s", []string{"before", "after"}, reqPerSec,
		&SlideMark{1, "the Node.js guide", "5.3 → 19.5 req/s", func(f float64) float64 { return f * 19.5 / 5.3 }}},
	9: {"Frameworks differ less than article D's switch", "empty GET, req/s", []string{"echo-empty", "fasthttp-empty"}, reqPerSec,
		&SlideMark{1, "article D", "14,200 → 81,500 req/s", func(f float64) float64 { return f * 81500 / 14200 }}},
	10: {"Hashing by item keeps one copy per item", "Redis loads per TTL window", []string{"rr-1", "rr-4", "hash-4"}, extra("redis_loads_per_ttl"), nil},
}

// SlideChart draws step r.Step's slide chart, or "" when the step has none
// or its runs lack the variants it shows.
func SlideChart(r *result.Result) string {
	f, ok := Slides[r.Step]
	if !ok {
		return ""
	}
	vals := make([]float64, len(f.Variants))
	for i, v := range f.Variants {
		x := r.Find(v)
		if x == nil {
			return ""
		}
		vals[i] = f.Value(x)
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
	for _, t := range a.ticks() {
		x := a.x(t)
		s.f(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s"/>`, x, top, x, bottom, gridColor)
		s.text(x, bottom+32, "middle", ` fill="#444" font-size="24"`, tick(t))
	}
	for i, v := range vals {
		y := top + row*float64(i)
		s.text(left-14, y+row/2+10, "end", "", f.Variants[i])
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
			f.Mark.Source+": "+f.Mark.Quote+" — its ratio applied to "+f.Variants[0])
	}
	s.f(`</svg>`)
	return s.String()
}

// slideName is the file a deck includes for step n's slide chart.
func slideName(n int) string { return fmt.Sprintf("step-%d-slide.svg", n) }
