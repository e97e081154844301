package scenario

import (
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/bench"
	"github.com/peakload/workshop/k6"
)

// Verdicts are computed from the figures, both ways.
func TestClaimsFollowTheFigures(t *testing.T) {
	run := func(name string, rps float64, extra map[string]float64) bench.Run {
		return bench.Run{Variant: name, RPS: rps, Requests: 1000, DurationS: 10, Extra: extra}
	}
	good := &bench.Result{Runs: []bench.Run{
		run("empty-post", 10000, nil), run("raw-seq", 800, nil), run("raw-100", 2400, nil), run("raw-bulk", 20000, nil),
		run("sync", 700, map[string]float64{"persisted_per_s": 700}),
		run("async", 900, map[string]float64{"persisted_per_s": 650, "additional_s": 3}),
		run("group", 900, map[string]float64{"persisted_per_s": 900, "additional_s": 2}),
		run("bulk", 9500, map[string]float64{"persisted_per_s": 9400, "accepted_per_s": 9500, "additional_s": 0.2}),
	}}
	for _, c := range writeClaims(good) {
		if c.Reproduced == nil || !*c.Reproduced {
			t.Errorf("%s: %v (%s), want reproduced", c.ID, c.Reproduced, c.Measured)
		}
	}
	if len(good.Notes) != 4 || !strings.Contains(good.Notes[3], "bulk") {
		t.Errorf("notes: %q", good.Notes)
	}
	bad := &bench.Result{Runs: good.Runs}
	bad.Runs[7].Extra = map[string]float64{"persisted_per_s": 1000, "accepted_per_s": 1000, "additional_s": 5}
	if c := writeClaims(bad)[0]; c.Reproduced == nil || *c.Reproduced {
		t.Errorf("B8 with a slow bulk: %v, want NOT reproduced", c.Reproduced)
	}

	env := Env{Params: k6.Load()}
	poll := &bench.Result{Runs: []bench.Run{
		{Variant: "cache-aside-poll", PerRequest: bench.PerRequest{PublicBytes: 1500}, Extra: map[string]float64{"body_bytes_per_req": 1400}},
		{Variant: "etag-poll", PerRequest: bench.PerRequest{PublicBytes: 470}, Extra: map[string]float64{"body_bytes_per_req": 350, "status_304_share": 0.75}},
	}}
	cs := etagClaims(poll, env)
	if !*cs[0].Reproduced || *cs[1].Reproduced {
		t.Errorf("A3 bodies ÷4.0 and wire ÷3.2: got %v and %v, want reproduced and not", *cs[0].Reproduced, *cs[1].Reproduced)
	}
}
