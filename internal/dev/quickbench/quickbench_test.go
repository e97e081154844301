package quickbench

import (
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/harness/result"
)

// The QUICK-bench assertion of make test must be able to fail.
func TestVerifyResult(t *testing.T) {
	good := func() *result.Result {
		return &result.Result{Step: 1, Claims: []result.Claim{{ID: "A1"}}, Runs: []result.Run{
			{Variant: "empty-get", Requests: 100},
			{Variant: "direct-db", Requests: 100, PerRequest: result.PerRequest{DBQueries: 1.0}},
		}, Capacity: []result.Capacity{{Variant: "empty-get", Probes: []result.Probe{
			{Rate: 1000, Run: result.Run{Requests: 100, Arrival: &result.Arrival{Scheduled: 100}}}}}}}
	}
	if err := Verify(good()); err != nil {
		t.Fatalf("good result rejected: %v", err)
	}
	for name, spoil := range map[string]func(r *result.Result){
		"errors":       func(r *result.Result) { r.Runs[0].Errors = 1 },
		"no requests":  func(r *result.Result) { r.Runs[1].Requests = 0 },
		"two queries":  func(r *result.Result) { r.Runs[1].PerRequest.DBQueries = 2 },
		"no claims":    func(r *result.Result) { r.Claims = nil },
		"no direct-db": func(r *result.Result) { r.Runs = r.Runs[:1] },
		"no probes":    func(r *result.Result) { r.Capacity[0].Probes = nil },
		"closed probe": func(r *result.Result) { r.Capacity[0].Probes[0].Run.Arrival = nil },
		"silent probe": func(r *result.Result) { r.Capacity[0].Probes[0].Run.Requests = 0 },
	} {
		t.Run(name, func(t *testing.T) {
			r := good()
			spoil(r)
			if err := Verify(r); err == nil {
				t.Error("accepted")
			} else if !strings.Contains(err.Error(), "step 1") {
				t.Errorf("error %q does not name the step", err)
			}
		})
	}
}
