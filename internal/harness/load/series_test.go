package load

import (
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/peakload/workshop/internal/harness/result"
)

// TestSeriesCoversWarmupWindowAndCounters: the series starts with the
// warm-up, marks the timed window, and carries the server's counters as
// rates (here one "DB query" per request, so DB queries/s tracks req/s).
func TestSeriesCoversWarmupWindowAndCounters(t *testing.T) {
	var served atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("GET /ok", func(w http.ResponseWriter, r *http.Request) {
		served.Add(1)
		time.Sleep(time.Millisecond)
	})
	mux.HandleFunc("GET /metrics", func(w http.ResponseWriter, r *http.Request) {
		n := served.Load()
		fmt.Fprintf(w, "peakload_db_queries_total %d\npeakload_http_requests_total{method=\"GET\",route=\"/ok\",status=\"200\"} %d\n", n, n)
	})
	target := serve(t, mux)
	o := Options{Target: target, VUs: 4, Duration: 800 * time.Millisecond, Warmup: 400 * time.Millisecond}
	v := Variant{Name: "ok", Route: "GET /ok", Path: "/ok", SeriesEvery: 100 * time.Millisecond}
	r, err := Measure(t.Context(), o, v, result.CPUPlan{}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := r.Series
	if s == nil || !s.Clients || s.EveryS != 0.1 {
		t.Fatalf("series %+v", s)
	}
	if s.WindowS[0] < 0.35 || s.WindowS[1] < s.WindowS[0]+0.75 {
		t.Errorf("window %v: want it to open after the 0.4 s warm-up and last 0.8 s", s.WindowS)
	}
	if n := len(s.Points); n < 10 || n > 14 {
		t.Fatalf("%d points for 1.2 s at 100 ms", n)
	}
	if s.Points[0].T > s.WindowS[0] || s.Points[0].RPS == 0 {
		t.Errorf("the warm-up is missing: first point %+v", s.Points[0])
	}
	var requests, queries float64
	for _, p := range s.Points {
		if p.NoScrape || p.P99 < p.P50 {
			t.Errorf("point %+v", p)
		}
		requests += p.RPS
		queries += p.DBQueries
	}
	if requests == 0 || queries < 0.8*requests || queries > 1.2*requests {
		t.Errorf("DB queries/s summed %.0f, req/s summed %.0f: want them equal within 20%%", queries, requests)
	}
}
