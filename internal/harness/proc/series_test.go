package proc

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

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
	// Intervals of 250 ms: a scrape delayed by a loaded machine moves the
	// server's count and the sampler's clock together, but a shorter
	// interval magnifies what the two clocks disagree by.
	s := StartSeries(t.Context(), srv.URL, "/x", 250*time.Millisecond)
	time.Sleep(1300 * time.Millisecond)
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
