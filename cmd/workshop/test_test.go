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
		}}
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

// With rounds, a row keeps its fastest round, and every round's errors.
func TestKeepBest(t *testing.T) {
	res := &bench.Result{}
	keepBest(res, bench.Run{Variant: "a", RPS: 100, Errors: 1, FirstError: "HTTP 500"}, 2)
	keepBest(res, bench.Run{Variant: "b", RPS: 50}, 2)
	keepBest(res, bench.Run{Variant: "a", RPS: 300}, 2)
	keepBest(res, bench.Run{Variant: "b", RPS: 40}, 2)
	a, b := res.Find("a"), res.Find("b")
	if len(res.Runs) != 2 || a.RPS != 300 || a.Errors != 1 || a.FirstError != "HTTP 500" || a.Extra["rps_worst_round"] != 100 || a.Extra["rounds"] != 2 {
		t.Errorf("a = %+v", a)
	}
	if b.RPS != 50 || b.Extra["rps_worst_round"] != 40 || b.Extra["rounds"] != 2 {
		t.Errorf("b = %+v", b)
	}
}
