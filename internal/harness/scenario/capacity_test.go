package scenario

import (
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/result"
)

// capacity is a search that served rate and achieved achieved at most.
func capacity(variant course.Variant, closed, rate, achieved float64) result.Capacity {
	run := result.Run{Arrival: &result.Arrival{Scheduled: 1000, IntendedRPS: closed, AchievedRPS: achieved}}
	return result.Capacity{Variant: variant, P99BoundMs: 10, ClosedRPS: closed, RPS: rate,
		Probes: []result.Probe{{Rate: closed, Run: run}}}
}

// Step 5's ceiling claim is judged on capacities when they were measured,
// whatever the closed loop's ratio says — both ways — and keeps the
// closed-loop ratio in its text.
func TestCeilingClaimOnCapacity(t *testing.T) {
	runs := []result.Run{
		{Variant: "empty-get", RPS: 40000, Requests: 1000},
		{Variant: "singleflight", RPS: 20000, Requests: 1000, PerRequest: result.PerRequest{RedisBytes: 1400}},
		{Variant: "burst", RPS: 36000, Requests: 1000, PerRequest: result.PerRequest{RedisBytes: 10}}, // closed loop: 0.90×
	}
	ceiling := func(r *result.Result) result.Claim { return burstClaims(r, inGo)[1] }
	if c := ceiling(&result.Result{Runs: runs}); c.Reproduced == nil || !*c.Reproduced {
		t.Fatalf("closed loop 0.90× without capacities: %v (%s), want reproduced", c.Reproduced, c.Measured)
	}
	low := &result.Result{Runs: runs, Capacity: []result.Capacity{capacity("empty-get", 40000, 30000, 40000), capacity("burst", 36000, 15000, 36000)}}
	c := ceiling(low)
	if c.Reproduced == nil || *c.Reproduced {
		t.Errorf("capacity 0.50× with the closed loop at 0.90×: %v (%s), want NOT reproduced", c.Reproduced, c.Measured)
	}
	if !strings.Contains(c.Measured, "capacity") || !strings.Contains(c.Measured, "closed loop: 0.90×") {
		t.Errorf("the text must give both figures: %s", c.Measured)
	}
	slow := append([]result.Run(nil), runs...)
	slow[2].RPS = 20000 // closed loop 0.50×, capacities 0.90×
	high := &result.Result{Runs: slow, Capacity: []result.Capacity{capacity("empty-get", 40000, 30000, 40000), capacity("burst", 20000, 27000, 27000)}}
	if c := ceiling(high); c.Reproduced == nil || !*c.Reproduced {
		t.Errorf("capacity 0.90× with the closed loop at 0.50×: %v (%s), want reproduced", c.Reproduced, c.Measured)
	}
}

// A0-open: the open loop's best achieved rate against the closed loop's.
func TestOpenDriverClaim(t *testing.T) {
	if c := openDriverClaim(&result.Result{}); c.Reproduced != nil {
		t.Fatalf("without CAPACITY=1: %v, want not measured", *c.Reproduced)
	}
	for achieved, want := range map[float64]bool{39000: true, 30000: false} {
		r := &result.Result{Capacity: []result.Capacity{capacity("empty-get", 40000, 30000, achieved)}}
		if c := openDriverClaim(r); c.Reproduced == nil || *c.Reproduced != want {
			t.Errorf("achieved %.0f of 40000: %v (%s), want %v", achieved, c.Reproduced, c.Measured, want)
		}
	}
}
