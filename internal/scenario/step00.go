package scenario

import (
	"fmt"

	"github.com/peakload/workshop/internal/bench"
)

// Step 0: the two ceilings, each measured by our Go driver and by wrk, so
// the table proves the driver saturates the server rather than itself.
func init() {
	register(Step{
		N: 0, Slug: "ceilings",
		Variants: func(env Env) []bench.Variant { return ceilings(env, true) },
		Claims: func(r *bench.Result, env Env) []bench.Claim {
			return []bench.Claim{driverClaim(r), postClaim(r)}
		},
	})
}

// driverClaim: our driver must reach ≥ 0.9× wrk's req/s on GET /empty.
func driverClaim(r *bench.Result) bench.Claim {
	c := bench.Claim{
		ID:        "A0",
		Article:   "an empty GET returning the item's body is the ceiling every figure is read against (k6, 200 VUs, one process); it is only a ceiling if the load tool saturates the server, not itself",
		Tolerance: "Go driver ≥ 0.9× wrk's req/s on GET /empty, same pinned server",
		Measured:  "not measured: needs both the Go driver and wrk rows (install wrk; TOOL unset)",
	}
	g, w := r.Find("empty-get"), r.Find("empty-get-wrk")
	if g == nil || w == nil || w.RPS == 0 {
		return c
	}
	x := g.RPS / w.RPS
	c.Measured = fmt.Sprintf("GET /empty: Go driver %.0f req/s, wrk %.0f req/s → %.2f× wrk", g.RPS, w.RPS, x)
	c.Reproduced = bench.Verdict(x >= 0.9 && g.Errors == 0)
	return c
}

// postClaim: B1/B2 — parsing the real payload costs something.
func postClaim(r *bench.Result) bench.Claim {
	c := bench.Claim{
		ID:        "B2",
		Article:   "empty POST with the real payload 4026 req/s vs empty GET 5498 req/s (Express): 0.73× — reading and parsing the body is the write path's first cost",
		Tolerance: "POST/GET between 0.55 and 0.95",
		Measured:  "not measured",
	}
	for _, suffix := range []string{"", "-wrk"} {
		g, p := r.Find("empty-get"+suffix), r.Find("empty-post"+suffix)
		if g == nil || p == nil || g.RPS == 0 {
			continue
		}
		x := p.RPS / g.RPS
		c.Measured = fmt.Sprintf("POST /empty %.0f req/s vs GET /empty %.0f req/s → %.2f× (%s)", p.RPS, g.RPS, x, map[string]string{"": "Go driver", "-wrk": "wrk"}[suffix])
		c.Reproduced = bench.Verdict(x >= 0.55 && x <= 0.95)
		return c
	}
	return c
}
