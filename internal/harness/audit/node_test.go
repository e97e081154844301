package audit

import (
	"strings"
	"testing"
	"time"

	"github.com/peakload/workshop/internal/harness/probe/probetest"
)

// TestExpressAsItShips: Express 5 with express.json()'s defaults gets the
// issue's findings, each true of it: its weak ETag and a 304 for it (and
// for the tag without W/), 413 for a big body, "400, text/html" for bad
// JSON (the default error handler's page), keep-alive, and a slowloris
// connection still open (Node's header timeout is a minute).
func TestExpressAsItShips(t *testing.T) {
	got := asItShips(t, "express.js", 1<<20, Missing)
	if f := got["malformed JSON gets a 4xx with a JSON error"]; !strings.Contains(f.Verdict, "400") || !strings.Contains(f.Evidence, "text/html") {
		t.Errorf("bad JSON on Express: %s (%s), want 400, text/html", f.Cell(), f.Evidence)
	}
	if ev := got["ETag / 304 on a repeated GET"].Evidence; !strings.Contains(ev, `W/"`) {
		t.Errorf("Express's tag is weak; the evidence shows %s", ev)
	}
}

// TestExpressColdKeyByItsQueryCounter: 50 requests at once for a key
// nobody has read, counted by Express's own query counter (its /metrics):
// the plain route stampedes, the coalescing one counts 1 for 50.
func TestExpressColdKeyByItsQueryCounter(t *testing.T) {
	base := probetest.Node(t, "express.js")
	for _, c := range []struct{ path, mark string }{{"/items/7", Missing}, {"/coalesced/items/8", Pass}} {
		cfg := Config{Target: target(t, base+c.path), Cold: 50, MetricsURL: base + "/metrics", Queries: "db_queries_total"}
		cfg.Defaults()
		f := coldKey(t.Context(), cfg, newClient())
		t.Logf("%s: %s — %s", c.path, f.Cell(), f.Evidence)
		if f.Mark != c.mark {
			t.Errorf("%s: %s, want %s (%s)", c.path, f.Cell(), c.mark, f.Evidence)
		}
		if c.mark == Pass && !strings.Contains(f.Verdict, "(1 for 50)") {
			t.Errorf("%s: %s, want 1 query for 50 (%s)", c.path, f.Verdict, f.Evidence)
		}
	}
}

// TestFastifyAsItShips: Fastify 5 with @fastify/etag: its strong tag and
// the weak form both get 304, 413 past its 1 MiB limit, a JSON 400 for bad
// JSON, keep-alive, and a slowloris connection still open.
func TestFastifyAsItShips(t *testing.T) {
	asItShips(t, "fastify.js", 2<<20, Pass)
}

// asItShips audits a Node framework's fixture (script) with a body of
// bodySize, past its limit, and checks what Express and Fastify share: a
// 304 for their tag and its weak form, 413, keep-alive and a slowloris
// connection still open; badJSON is the mark its answer to bad JSON gets.
func asItShips(t *testing.T, script string, bodySize int, badJSON string) map[string]Finding {
	t.Helper()
	base := probetest.Node(t, script)
	got := verdicts(t, Config{Target: target(t, base+"/items/1"), Post: "/events", SlowlorisBound: 2 * time.Second, BodySize: bodySize, Cold: 5})
	want(t, got, "ETag / 304 on a repeated GET", Pass)
	want(t, got, "ETag", Pass) // the weak form
	want(t, got, "oversized body", Pass)
	want(t, got, "malformed JSON gets a 4xx with a JSON error", badJSON)
	want(t, got, "keep-alive honoured", Pass)
	want(t, got, "a slowloris connection closed within 2s", Missing)
	return got
}

// TestNodeFrameworksUnderABurst: neither framework sheds, so neither is
// ever said to (no 503 at all, with or without Retry-After, nor "refuses
// below its own rate"); with its CPU read from its /metrics a queue is
// "queues" only when that CPU was saturated, and a not-judged queue never
// blames a database these routes do not have. After the burst neither
// holds a queue: it is not "not recovered", unless the load tool's own
// CPU decided (logged, skipped: the machine is shared).
func TestNodeFrameworksUnderABurst(t *testing.T) {
	for _, script := range []string{"express.js", "fastify.js"} {
		t.Run(script, func(t *testing.T) {
			base := probetest.Node(t, script)
			_, fs := burst(t.Context(), Config{Target: target(t, base+"/items/1"), Burst: time.Second, P99Ms: 100, MetricsURL: base + "/metrics"})
			for _, f := range fs {
				t.Logf("%s: %s — %s", f.Practice, f.Cell(), f.Evidence)
			}
			shed, rec := fs[0], fs[1]
			switch shed.Verdict {
			case english("table.audit.sheds"), english("table.audit.no_retry_after"), english("table.audit.refuses"):
				t.Errorf("%s does not shed, yet: %s (%s)", script, shed.Cell(), shed.Evidence)
			}
			if strings.Contains(shed.Evidence, "database") {
				t.Errorf("%s's route has no database: %s", script, shed.Evidence)
			}
			if rec.Mark == Missing {
				if strings.Contains(shed.Evidence, "the audit used") {
					t.Skipf("the load tool's CPU decided: %s", shed.Evidence)
				}
				t.Errorf("%s holds no queue after a burst: %s (%s)", script, rec.Cell(), rec.Evidence)
			}
		})
	}
}
