package audit

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/peakload/workshop/internal/probe/probetest"
)

// guard bounds an audit of a bad target: generous, for a shared machine
// (a hanging server costs the audit client's 10 s, then the first GET's 5 s).
const guard = 40 * time.Second

// A target that refuses, fails or hangs ends the audit with an error that
// says so: no findings, no results file, a non-zero exit.
func TestAuditOfABadTargetIsAnError(t *testing.T) {
	for _, c := range []struct{ name, base, want string }{
		{"refuses (a closed port)", probetest.ClosedPort(t), "refused"},
		{"answers 500", probetest.Serve(t, probetest.Status(500)), "HTTP 500"},
		{"hangs", probetest.Hang(t), "timeout"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t0 := time.Now()
			res, fs, err := Run(t.Context(), Config{Target: target(t, c.base+"/items/1"), SlowlorisBound: 2 * time.Second, Cold: 5, Burst: time.Second})
			t.Logf("after %s: %v", time.Since(t0).Round(time.Millisecond), err)
			if err == nil || !strings.Contains(err.Error(), c.want) || res != nil || fs != nil {
				t.Errorf("want an error naming %q and no results, got %v (%d findings)", c.want, err, len(fs))
			}
			if took := time.Since(t0); took > guard {
				t.Errorf("the audit of a bad target took %s", took)
			}
		})
	}
}

// METRICS that is not Prometheus text, and QUERIES that names none of
// its metrics, are errors before anything is sent to the service.
func TestAuditChecksMetricsFirst(t *testing.T) {
	mux := http.NewServeMux()
	mux.Handle("/html", probetest.NotPrometheus())
	mux.Handle("/metrics", probetest.Metrics(map[string]float64{"db_queries_total": 1}))
	sent := false
	mux.HandleFunc("/items/", func(http.ResponseWriter, *http.Request) { sent = true })
	base := probetest.Serve(t, mux)
	for _, c := range []struct{ metrics, queries, want string }{
		{"/html", "", "not Prometheus text"},
		{"/metrics", "db_querys_total", "not a metric"},
		{"", "db_queries_total", "METRICS=url"},
	} {
		metrics := ""
		if c.metrics != "" {
			metrics = base + c.metrics
		}
		_, _, err := Run(t.Context(), Config{Target: target(t, base+"/items/1"), MetricsURL: metrics, Queries: c.queries})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("METRICS=%s QUERIES=%s: want %q, got %v", c.metrics, c.queries, c.want, err)
		}
	}
	if sent {
		t.Error("a request reached the service before the metrics were checked")
	}
}
