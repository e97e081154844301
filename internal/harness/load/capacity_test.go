package load

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/peakload/workshop/internal/harness/result"
)

// fakeProbe serves every rate up to capacity with a p99 of 2 ms and none
// above it, as an ideal server would.
func fakeProbe(capacity float64, rates *[]float64) func(rate float64) (result.Run, error) {
	return func(rate float64) (result.Run, error) {
		*rates = append(*rates, rate)
		r := result.Run{Requests: 1000, Latency: result.Latency{P99: 2}, Arrival: &result.Arrival{Scheduled: 1000, IntendedRPS: rate, AchievedRPS: rate}}
		if rate > capacity {
			r.Latency.P99 = 500
		}
		return r, nil
	}
}

// The search brackets the capacity from either side of its start and
// narrows it by bisection: the answer is a rate that passed, the next
// failure is just above it.
func TestSearchCapacityBrackets(t *testing.T) {
	c := CapacityConfig{P99Ms: 10, Bisections: 6, Brackets: 8}
	for _, start := range []float64{300, 1000, 1234, 5000} {
		var rates []float64
		got, err := SearchCapacity(t.Context(), c, start, fakeProbe(1234, &rates))
		if err != nil {
			t.Fatal(err)
		}
		if got.RPS > 1234 || got.RPS < 0.95*1234 || got.Above <= 1234 {
			t.Errorf("start %.0f: capacity %.0f, first failure at %.0f, want ≤ 1234 and close to it (probes %v)", start, got.RPS, got.Above, rates)
		}
		if len(got.Probes) != len(rates) || len(rates) > 1+c.Brackets+c.Bisections {
			t.Errorf("start %.0f: %d probes kept of %d run, budget %d", start, len(got.Probes), len(rates), 1+c.Brackets+c.Bisections)
		}
	}
}

// A rate is served only when the schedule was kept and the wait bounded.
func TestServedNamesWhatFailed(t *testing.T) {
	c := CapacityConfig{P99Ms: 10}
	ok := result.Run{Requests: 1000, Latency: result.Latency{P99: 5}, Arrival: &result.Arrival{Scheduled: 1000, IntendedRPS: 1000, AchievedRPS: 1000}}
	if served, why := c.Served(ok); !served {
		t.Fatalf("a kept schedule at p99 5 ms failed: %s", why)
	}
	for name, mutate := range map[string]func(r *result.Run){
		"slow":     func(r *result.Run) { r.Latency.P99 = 11 },
		"errors":   func(r *result.Run) { r.Errors = 5 },
		"not sent": func(r *result.Run) { r.Arrival.NotSent = 1 },
		"behind":   func(r *result.Run) { r.Arrival.AchievedRPS = 900 },
		"closed":   func(r *result.Run) { r.Arrival = nil },
	} {
		r := ok
		a := *ok.Arrival
		r.Arrival = &a
		mutate(&r)
		if served, _ := c.Served(r); served {
			t.Errorf("%s: served", name)
		}
	}
}

// On a real server of known capacity — one request at a time, 2 ms each,
// so at most 500 req/s — the search lands below that ceiling, with a
// failing rate above what it found. Only the ceiling is asserted: the
// machine running the tests may be busy, which only ever lowers what the
// server manages.
func TestSearchCapacityOnALimitedServer(t *testing.T) {
	var mu sync.Mutex
	target := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		time.Sleep(2 * time.Millisecond)
	}))
	c := CapacityConfig{P99Ms: 50, Probe: 300 * time.Millisecond, Warmup: 100 * time.Millisecond, Bisections: 2, Brackets: 6}
	got, err := SearchCapacity(t.Context(), c, 1000, func(rate float64) (result.Run, error) {
		o := Options{Target: target, VUs: 8, MaxInFlight: 50, Rate: rate, Duration: c.Probe, Warmup: c.Warmup}
		return DriveOpen(t.Context(), o, Variant{Name: "limited", Path: "/"}, func(string) {})
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range got.Probes {
		t.Logf("%6.0f req/s: served %v (%s), achieved %.0f, missed %d", p.Rate, p.OK, p.Why, p.Run.Arrival.AchievedRPS, p.Run.Arrival.Missed)
	}
	if got.RPS > 500 || got.RPS == 0 {
		t.Fatalf("capacity %.0f req/s of a server that can do at most 500 (0: no probe down to ~120 req/s was served)", got.RPS)
	}
	if got.Above == 0 || got.Above > 1000 {
		t.Fatalf("the search found no failing rate (%.0f) at or below its start of 1000 req/s, twice the ceiling", got.Above)
	}
}

// A failed probe says when the driver, not the server, fell behind.
func TestServedBlamesTheDriver(t *testing.T) {
	c := CapacityConfig{P99Ms: 10}
	late := result.Run{Requests: 1000, RPS: 1000, Latency: result.Latency{P99: 80}, PerRequest: result.PerRequest{ServerCPUus: 300},
		Arrival: &result.Arrival{Scheduled: 1000, Missed: 300, IntendedRPS: 1000, AchievedRPS: 1000}}
	if ok, why := c.Served(late); ok || !strings.Contains(why, "driver fell behind") {
		t.Errorf("30%% late with the server 30%% busy: served %v, %q", ok, why)
	}
	late.PerRequest.ServerCPUus = 950 // the server was the limit
	if _, why := c.Served(late); strings.Contains(why, "driver") {
		t.Errorf("server 95%% busy: %q blames the driver", why)
	}
}
