package probe

import (
	"strings"
	"testing"
	"time"

	"github.com/peakload/workshop/internal/harness/probe/probetest"
	"github.com/peakload/workshop/internal/harness/result"
)

// TestProbeOfNodeFrameworks: make probe's code on Express 5 and Fastify 5
// as they ship. A route that serves is a row with requests and no errors,
// and Express's own query counter, divided by the requests it served, is
// 0 on a key its cache holds (the first request, sent before the load,
// read it). A POST of bad JSON, which each answers 400, is a failed row,
// never a req/s. No throughput is asserted.
func TestProbeOfNodeFrameworks(t *testing.T) {
	for _, script := range []string{"express.js", "fastify.js"} {
		t.Run(script, func(t *testing.T) {
			base := probetest.Node(t, script)
			tg, err := Resolve(t.Context(), base+"/items/1", false)
			if err != nil {
				t.Fatal(err)
			}
			c := Config{Target: tg, VUs: 4, Duration: 500 * time.Millisecond, Warmup: 100 * time.Millisecond, Rounds: 1}
			if script == "express.js" {
				c.MetricsURL = base + "/metrics"
				if c.PerRequest, err = ParsePerRequest("db_queries_total"); err != nil {
					t.Fatal(err)
				}
			}
			res, err := Run(t.Context(), c)
			if err != nil {
				t.Fatalf("%s: %v", script, err)
			}
			r := res.Runs[0]
			if r.Requests == 0 || r.Errors != 0 {
				t.Errorf("%s: %d requests, %d errors (%s): want a row that served", script, r.Requests, r.Errors, r.FirstError)
			}
			if q, ok := r.Extra[result.PerRequestOf("db_queries_total")]; script == "express.js" && (!ok || q != 0) {
				t.Errorf("express: db_queries_total per request = %v (%v), want 0 on a cached key; extra: %v", q, ok, r.Extra)
			}
			c.MetricsURL, c.PerRequest = "", nil
			c.Requests = []Request{{Method: "POST", Path: "/events", Body: `{"event_name": "click", "data": `, Headers: map[string]string{"Content-Type": "application/json"}}}
			if _, err := Run(t.Context(), c); err == nil || !strings.Contains(err.Error(), "400") {
				t.Errorf("%s: a POST of bad JSON (400 each): %v, want a failed row naming the 400", script, err)
			}
		})
	}
}
