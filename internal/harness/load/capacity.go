package load

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/result"
)

// Capacity: the highest arrival rate a variant serves with its p99 under a
// bound. A closed loop's req/s is not that figure: by Little's law its
// rate is users ÷ (latency + think time), so it says how fast 200 users
// who wait for each answer go round — the server's throughput when it is
// the bottleneck, but measured with the queue the users formed hidden from
// the percentiles. Capacity asks the question a launch asks instead: at
// what rate of arriving requests does the wait stay acceptable?

// CapacityConfig is the search's budget and bound (k6/lib/params.json's
// "capacity").
type CapacityConfig struct {
	P99Ms      float64       // the bound: a rate is served when p99 from the due time ≤ this
	Probe      time.Duration // each probe's measured window
	Warmup     time.Duration // each probe's warm-up at its own rate
	Bisections int           // halvings of the bracket once it is found
	Brackets   int           // at most this many probes to find the bracket
}

// InFlight is how many requests a probe at rate may keep in flight: by
// Little's law a rate served within the bound has at most rate × bound of
// them waiting, so more connections could only serve a rate that fails
// anyway — and would slow the driver down. At least vus, at most limit.
func (c CapacityConfig) InFlight(rate float64, vus, limit int) int {
	n := max(vus, int(math.Ceil(rate*c.P99Ms/1000)))
	if limit > 0 {
		n = min(n, limit)
	}
	return n
}

// Served judges one probe: the schedule kept (achieved ≥ 95 % of it,
// nothing left unsent), no more than 0.1 % errors, and p99 from the due
// time within the bound. It says why in words for the table.
func (c CapacityConfig) Served(r result.Run) (bool, string) {
	ok, why := c.served(r)
	if a := r.Arrival; !ok && a != nil && a.MissedShare() > 0.05 {
		// A schedule missed while the server idled is the driver's limit,
		// not the server's: say so rather than let it pass for capacity.
		if busy := r.RPS * r.PerRequest.ServerCPUus / 1e4; busy > 0 && busy < 80 {
			why += "; " + messages.English.T("table.why.driver_behind", 100*a.MissedShare(), busy)
		}
	}
	return ok, why
}

func (c CapacityConfig) served(r result.Run) (bool, string) {
	a := r.Arrival
	if a == nil || a.Scheduled == 0 {
		return false, messages.English.T("table.why.not_open")
	}
	switch {
	case a.NotSent > 0:
		return false, messages.English.T("table.why.not_sent", a.NotSent)
	case float64(r.Errors) > 0.001*float64(max(r.Requests, 1)):
		return false, messages.English.T("table.why.errors", r.Errors)
	case a.AchievedRPS < 0.95*a.IntendedRPS:
		return false, messages.English.T("table.why.achieved", a.AchievedRPS, a.IntendedRPS)
	case r.Latency.P99 > c.P99Ms:
		return false, fmt.Sprintf("p99 %.1f ms > %.0f ms", r.Latency.P99, c.P99Ms)
	}
	return true, fmt.Sprintf("p99 %.1f ms ≤ %.0f ms", r.Latency.P99, c.P99Ms)
}

// SearchCapacity finds the highest rate probe serves within the bound:
// from start (the closed loop's req/s), up by ×1.3 while rates pass or
// down by ×0.7 while they fail, until a passing rate and a failing one
// bracket the capacity; then Bisections halvings of the bracket. Each
// probe is a fresh open-loop run at one rate. A probe error ends the search.
func SearchCapacity(ctx context.Context, c CapacityConfig, start float64, probe func(rate float64) (result.Run, error)) (result.Capacity, error) {
	var out result.Capacity
	out.P99BoundMs = c.P99Ms
	if start <= 0 {
		start = 1000
	}
	var lo, hi float64 // highest rate served, lowest rate failed
	try := func(rate float64) error {
		rate = math.Round(rate)
		r, err := probe(rate)
		if err != nil {
			return fmt.Errorf("probe at %.0f req/s: %w", rate, err)
		}
		ok, why := c.Served(r)
		out.Probes = append(out.Probes, result.Probe{Rate: rate, OK: ok, Why: why, Run: r})
		if ok && rate > lo {
			lo = rate
		}
		if !ok && (hi == 0 || rate < hi) {
			hi = rate
		}
		return ctx.Err()
	}
	if err := try(start); err != nil {
		return out, err
	}
	for range max(c.Brackets, 1) {
		switch {
		case lo > 0 && hi == 0:
			if err := try(lo * 1.3); err != nil {
				return out, err
			}
		case hi > 0 && lo == 0:
			if hi*0.7 < 1 {
				break
			}
			if err := try(hi * 0.7); err != nil {
				return out, err
			}
		}
	}
	for range c.Bisections {
		if lo == 0 || hi == 0 || hi-lo <= 0.02*lo {
			break
		}
		if err := try((lo + hi) / 2); err != nil {
			return out, err
		}
	}
	out.RPS, out.Above = lo, hi
	return out, nil
}
