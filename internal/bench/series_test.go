package bench

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
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
	r, err := Measure(t.Context(), o, v, CPUPlan{}, t.TempDir())
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

// TestSeriesMarksAServerThatStopsAnswering: a scrape that fails leaves a
// gap (NoScrape), never a made-up zero.
func TestSeriesMarksAServerThatStopsAnswering(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, "process_cpu_seconds_total 1")
	}))
	s := StartSeries(t.Context(), srv.URL, "/x", 50*time.Millisecond)
	time.Sleep(120 * time.Millisecond)
	srv.Close()
	time.Sleep(120 * time.Millisecond)
	out := s.Finish(t.Context())
	var gaps int
	for _, p := range out.Points {
		if p.NoScrape {
			gaps++
		}
	}
	if gaps == 0 || gaps == len(out.Points) {
		t.Errorf("%d gaps in %d points: want the second half marked", gaps, len(out.Points))
	}
}

// TestSeriesWithoutOurClientsCountsTheServer: with another tool (wrk, k6)
// no user records into the series; req/s is then what the server counted
// on the variant's route, and Clients says so.
func TestSeriesWithoutOurClientsCountsTheServer(t *testing.T) {
	start := time.Now()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := int(time.Since(start).Seconds() * 1000) // 1000 requests a second on /x, 2000 on /y
		fmt.Fprintf(w, "peakload_http_requests_total{method=\"GET\",route=\"/x\",status=\"200\"} %d\n", n)
		fmt.Fprintf(w, "peakload_http_requests_total{method=\"GET\",route=\"/y\",status=\"200\"} %d\n", 2*n)
	}))
	defer srv.Close()
	s := StartSeries(t.Context(), srv.URL, "/x", 100*time.Millisecond)
	time.Sleep(550 * time.Millisecond)
	out := s.Finish(t.Context())
	if out.Clients || len(out.Points) < 4 {
		t.Fatalf("series %+v", out)
	}
	for _, p := range out.Points[1:] {
		if p.RPS < 700 || p.RPS > 1300 || p.P99 != 0 || p.NoRPS {
			t.Errorf("point %+v: want ~1000 req/s of /x, the server's count, and no latency", p)
		}
	}
	// A route the server does not count: req/s unknown, not zero.
	s = StartSeries(t.Context(), srv.URL, "/z", 100*time.Millisecond)
	time.Sleep(250 * time.Millisecond)
	for _, p := range s.Finish(t.Context()).Points {
		if !p.NoRPS {
			t.Errorf("point %+v: /z is not counted, its req/s is unknown", p)
		}
	}
}
