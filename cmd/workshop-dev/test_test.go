package main

import (
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/bench"
)

// The QUICK-bench assertion of make test must be able to fail.
func TestVerifyResult(t *testing.T) {
	good := func() *bench.Result {
		return &bench.Result{Step: 1, Claims: []bench.Claim{{ID: "A1"}}, Runs: []bench.Run{
			{Variant: "empty-get", Requests: 100},
			{Variant: "direct-db", Requests: 100, PerRequest: bench.PerRequest{DBQueries: 1.0}},
		}, Capacity: []bench.Capacity{{Variant: "empty-get", Probes: []bench.Probe{
			{Rate: 1000, Run: bench.Run{Requests: 100, Arrival: &bench.Arrival{Scheduled: 100}}}}}}}
	}
	if err := VerifyResult(good()); err != nil {
		t.Fatalf("good result rejected: %v", err)
	}
	for name, spoil := range map[string]func(r *bench.Result){
		"errors":       func(r *bench.Result) { r.Runs[0].Errors = 1 },
		"no requests":  func(r *bench.Result) { r.Runs[1].Requests = 0 },
		"two queries":  func(r *bench.Result) { r.Runs[1].PerRequest.DBQueries = 2 },
		"no claims":    func(r *bench.Result) { r.Claims = nil },
		"no direct-db": func(r *bench.Result) { r.Runs = r.Runs[:1] },
		"no probes":    func(r *bench.Result) { r.Capacity[0].Probes = nil },
		"closed probe": func(r *bench.Result) { r.Capacity[0].Probes[0].Run.Arrival = nil },
		"silent probe": func(r *bench.Result) { r.Capacity[0].Probes[0].Run.Requests = 0 },
	} {
		t.Run(name, func(t *testing.T) {
			r := good()
			spoil(r)
			if err := VerifyResult(r); err == nil {
				t.Error("accepted")
			} else if !strings.Contains(err.Error(), "step 1") {
				t.Errorf("error %q does not name the step", err)
			}
		})
	}
}
