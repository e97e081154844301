package report

import (
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/harness/result"
)

func withSeries() *result.Result {
	ser := func(rps ...float64) *result.Series {
		s := &result.Series{EveryS: 1, WindowS: [2]float64{1, 4}, Clients: true}
		for i, v := range rps {
			s.Points = append(s.Points, result.Point{T: float64(i + 1), RPS: v, P50: 1, P99: 5, DBQueries: v / 10, ServerCPU: 0.9})
		}
		return s
	}
	return &result.Result{Step: 4, Runs: []result.Run{
		{Variant: "cache-aside", Series: ser(100, 900, 1000, 950, 0)},
		{Variant: "singleflight", Series: ser(200, 1800, 2000, 1900, 10)},
	}}
}

// TestSeriesChartIsTheRuns: the chart is drawn from the points (a chart of
// constants would pass a snapshot test), one line per variant, and a step
// whose runs kept no series has none.
func TestSeriesChartIsTheRuns(t *testing.T) {
	r := withSeries()
	before := SeriesChart(r)
	for _, v := range []string{"cache-aside", "singleflight", "DB queries / s", "warm-up"} {
		if !strings.Contains(before, v) {
			t.Errorf("the chart lacks %q", v)
		}
	}
	r.Runs[0].Series.Points[2].DBQueries = 5000 // a stampede
	if SeriesChart(r) == before {
		t.Error("a spike of DB queries left the chart unchanged")
	}
	if strings.Contains(before, "errors") {
		t.Error("an errors panel without errors")
	}
	r.Runs[1].Series.Points[3].Errors = 40
	if !strings.Contains(SeriesChart(r), "errors") {
		t.Error("40 errors in an interval, and no errors panel")
	}
	if _, ok := SlideFiles(r)["step-4-series.svg"]; !ok {
		t.Error("a run with a series gives the deck no step-4-series.svg")
	}
	for i := range r.Runs {
		r.Runs[i].Series = nil
	}
	if c := SeriesChart(r); c != "" {
		t.Errorf("runs without a series drew a chart: %.80s", c)
	}
	if _, ok := SlideFiles(r)["step-4-series.svg"]; ok {
		t.Error("runs without a series still give a series figure")
	}
}

// TestSeriesChartBreaksAtGaps: an interval the server did not answer is a
// gap in its counters' lines, not a drop to zero.
func TestSeriesChartBreaksAtGaps(t *testing.T) {
	r := withSeries()
	whole := strings.Count(SeriesChart(r), "M")
	r.Runs[0].Series.Points[2].NoScrape = true
	// The two segments on either side of the gap, in each of step 4's two
	// counter panels; req/s and p99 come from the clients and stay.
	if got := strings.Count(SeriesChart(r), "M"); got != whole-4 {
		t.Errorf("segments %d → %d: a gap must leave out its 4 counter segments", whole, got)
	}
}

// TestDrillIsDrawnWithItsMoments: a step's drill appears under the step,
// over time, with the moments it marked.
func TestDrillIsDrawnWithItsMoments(t *testing.T) {
	d := withSeries()
	d.Step, d.Runs = 2, d.Runs[:1]
	d.Runs[0].Series.Events = []result.Event{{T: 2, What: "Redis stopped"}, {T: 3.5, What: "Redis started (empty)"}}
	page := PageWithDrills("t", []int{2}, map[int]string{2: "cache-aside"}, map[int]*result.Result{}, map[int]*result.Result{2: d}, false)
	for _, want := range []string{"make step-2 drill", "Redis stopped", "Redis started (empty)", "<svg"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(Page("t", []int{2}, map[int]string{2: "cache-aside"}, map[int]*result.Result{}, false), "drill") {
		t.Error("a page without drills mentions one")
	}
}
