package proc

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// answer has the series' scrapes answered by h in the scraper's own
// goroutine: a server with no socket, so a test runs in a synctest bubble,
// on its fake clock, with exact counts however loaded the machine is. h
// answers false for a server that is gone (the scrape fails).
func answer(t *testing.T, h func(w http.ResponseWriter) bool) {
	saved := scrapeClient
	t.Cleanup(func() { scrapeClient = saved })
	scrapeClient = &http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
		w := httptest.NewRecorder()
		if !h(w) {
			return nil, errors.New("connection refused")
		}
		return w.Result(), nil
	})}
}

type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestSeriesMarksAServerThatStopsAnswering: a scrape that fails leaves a
// gap (NoScrape), never a made-up zero.
func TestSeriesMarksAServerThatStopsAnswering(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var gone atomic.Bool
		answer(t, func(w http.ResponseWriter) bool {
			fmt.Fprintln(w, "process_cpu_seconds_total 1")
			return !gone.Load()
		})
		s := StartSeries(t.Context(), "http://server", "/x", 50*time.Millisecond)
		time.Sleep(120 * time.Millisecond) // scrapes at 50 and 100 ms
		gone.Store(true)
		time.Sleep(120 * time.Millisecond) // and at 150, 200 ms: gaps
		out := s.Finish(t.Context())
		var gaps []bool
		for _, p := range out.Points {
			gaps = append(gaps, p.NoScrape)
		}
		if want := []bool{false, false, true, true}; !slices.Equal(gaps[:min(4, len(gaps))], want) {
			t.Errorf("points marked as gaps %v: want %v, the last two after the server went", gaps, want)
		}
	})
}

// TestSeriesWithoutOurClientsCountsTheServer: with another tool (wrk, k6)
// no user records into the series; req/s is then what the server counted
// on the variant's route, and Clients says so.
func TestSeriesWithoutOurClientsCountsTheServer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		answer(t, func(w http.ResponseWriter) bool {
			n := int(time.Since(start).Milliseconds()) // 1000 requests a second on /x, 2000 on /y
			fmt.Fprintf(w, "peakload_http_requests_total{method=\"GET\",route=\"/x\",status=\"200\"} %d\n", n)
			fmt.Fprintf(w, "peakload_http_requests_total{method=\"GET\",route=\"/y\",status=\"200\"} %d\n", 2*n)
			return true
		})
		s := StartSeries(t.Context(), "http://server", "/x", 250*time.Millisecond)
		time.Sleep(1100 * time.Millisecond)
		out := s.Finish(t.Context())
		if out.Clients || len(out.Points) != 5 { // one a tick, and Finish's own
			t.Fatalf("series %+v: want 5 points of the server's counts alone", out)
		}
		for _, p := range out.Points {
			if p.RPS != 1000 || p.P99 != 0 || p.NoRPS {
				t.Errorf("point %+v: want 1000 req/s of /x, the server's count, and no latency", p)
			}
		}
		// A route the server does not count: req/s unknown, not zero.
		s = StartSeries(t.Context(), "http://server", "/z", 100*time.Millisecond)
		time.Sleep(250 * time.Millisecond)
		for _, p := range s.Finish(t.Context()).Points {
			if !p.NoRPS {
				t.Errorf("point %+v: /z is not counted, its req/s is unknown", p)
			}
		}
	})
}

// Finish during a scrape waits for it: the interval's point is the
// server's answer, not a gap (a gap says the server did not answer).
func TestFinishDuringAScrapeLeavesNoGap(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		saved := scrapeClient
		t.Cleanup(func() { scrapeClient = saved })
		scrapeClient = &http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
			select { // a server that takes 50 ms to answer, as a transport does, cut short by the request's context
			case <-time.After(50 * time.Millisecond):
			case <-r.Context().Done():
				return nil, r.Context().Err()
			}
			w := httptest.NewRecorder()
			fmt.Fprintln(w, "process_cpu_seconds_total 1")
			return w.Result(), nil
		})}
		s := StartSeries(t.Context(), "http://server", "/x", 100*time.Millisecond)
		time.Sleep(220 * time.Millisecond) // the scrape of the tick at 200 ms runs until 250 ms
		for _, p := range s.Finish(t.Context()).Points {
			if p.NoScrape {
				t.Errorf("point %+v marked as a gap: Finish cut its scrape short", p)
			}
		}
	})
}
