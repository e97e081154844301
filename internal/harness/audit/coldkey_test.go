package audit

import (
	"fmt"
	"testing"
	"time"

	"github.com/peakload/workshop/internal/harness/stacktest"
)

// TestColdKeyStep4ByItsQueryCounter: step 4's /coalesced route, a key no
// one has read, 50 requests at once, judged by the server's own
// peakload_db_queries_total. The untouched exercise (Group.Load calls load
// for every caller) stampedes; the reference coalesces the misses.
func TestColdKeyStep4ByItsQueryCounter(t *testing.T) {
	t.Parallel() // counted by the service's own counter, not timed: beside the other audits without a burst
	stacktest.Postgres(t)
	stacktest.Redis(t)
	for i, solution := range []bool{false, true} {
		base := stepServer(t, "steps/04-singleflight", solution)
		// a key nobody has read: a fresh item each run (the TTL is short,
		// but another test may have read the same one a moment ago)
		id := 1 + (time.Now().UnixNano()/1000+int64(i)*7919)%5000
		c := Config{Target: target(t, fmt.Sprintf("%s/coalesced/items/%d", base, id)), Cold: 50,
			MetricsURL: base + "/metrics", Queries: "peakload_db_queries_total"}
		c.Defaults()
		f := coldKey(t.Context(), c, newClient())
		name := map[bool]string{false: "the untouched exercise", true: "the reference"}[solution]
		t.Logf("%s: %s: %s — %s", name, f.Practice, f.Cell(), f.Evidence)
		want := map[bool]string{false: Missing, true: Pass}[solution]
		if f.Mark != want {
			t.Errorf("%s: %s, want %s (%s)", name, f.Cell(), want, f.Evidence)
		}
	}
}
