package audit

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/peakload/workshop/internal/harness/probe/probetest"
)

// A target that refuses, fails or hangs ends the audit with an error that
// says so: no findings, no results file, a non-zero exit.
func TestAuditOfABadTargetIsAnError(t *testing.T) {
	for _, c := range []struct{ name, base, want string }{
		{"refuses (a closed port)", probetest.ClosedPort(t), "refused"},
		{"answers 500", probetest.Serve(t, probetest.Status(500)), "HTTP 500"},
		{"hangs", probetest.Hang(t), "no answer"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, fs, err := Run(t.Context(), Config{Target: target(t, c.base+"/items/1"), SlowlorisBound: 2 * time.Second, Cold: 5, Burst: time.Second})
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.base) || res != nil || fs != nil {
				t.Errorf("want an error naming %q and %s, and no results, got %v (%d findings)", c.want, c.base, err, len(fs))
			}
		})
	}
}

// A hanging service gets the audit's first requests and nothing after
// them: counted by the connections it accepted, not by the clock. The
// first request is the URL's GET, or, when the cold key is the URL's own
// path (no CHANGE to make it cold), the cold key's own requests; either
// way no slowloris, body, burst or second wave follows, so the audit ends
// after one request's timeout.
func TestAuditOfAHangingTargetSendsOnlyItsFirstRequests(t *testing.T) {
	for _, c := range []struct {
		name      string
		cold      string
		wantConns int64
	}{
		{"the URL's GET first", "/items/2", 1},
		{"the cold key first (it is the URL's path)", "", 5},
	} {
		t.Run(c.name, func(t *testing.T) {
			base, accepted := probetest.HangCounting(t)
			_, _, err := Run(t.Context(), Config{Target: target(t, base+"/items/1"), ColdPath: c.cold, Cold: 5, SlowlorisBound: 2 * time.Second, Burst: time.Second})
			if err == nil || !strings.Contains(err.Error(), base) {
				t.Fatalf("want an error naming %s, got %v", base, err)
			}
			if n := accepted.Load(); n != c.wantConns {
				t.Errorf("the hanging service accepted %d connections, want %d (the first requests only): %v", n, c.wantConns, err)
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

// The evidence says what was observed: a 2.6 MB body is read whole (the
// connection is kept, its size is the body's), a service answering 304 to
// any tag fails the ETag check, a 500 in a millisecond is not "the whole
// body was read", and a slowloris connection is "still open", no reason
// guessed.
func TestEvidenceIsWhatWasObserved(t *testing.T) {
	const big = 2_600_000
	mux := http.NewServeMux()
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			http.Error(w, "no", http.StatusInternalServerError) // at once, the body unread
			return
		}
		w.Write([]byte(strings.Repeat("x", big)))
	})
	mux.Handle("/tagged", probetest.AnyTag304())
	base := probetest.Serve(t, mux)

	got := verdicts(t, Config{Target: target(t, base+"/big"), SlowlorisBound: time.Second, BodySize: 8 << 20, Cold: 2})
	want(t, got, "keep-alive honoured", Pass)
	if ev := got["ETag / 304 on a repeated GET"].Evidence; !strings.Contains(ev, "2600000 bytes") {
		t.Errorf("the body's size is not the whole body's: %s", ev)
	}
	if ev := got["oversized body"].Evidence; strings.Contains(ev, "whole body") || !strings.Contains(ev, "bytes sent when the answer began") {
		t.Errorf("body limit evidence guesses rather than says what was seen: %s", ev)
	}
	if ev := got["a slowloris connection closed within 1s"].Evidence; !strings.Contains(ev, "still open after") || strings.Contains(ev, "timeout") {
		t.Errorf("slowloris evidence: %s", ev)
	}

	got = verdicts(t, Config{Target: target(t, base+"/tagged"), SlowlorisBound: time.Second, BodySize: 1 << 20, Cold: 2})
	want(t, got, "ETag / 304 on a repeated GET", Missing)
	want(t, got, "ETag", NotJudged) // the weak form: nothing to say of its tags
	if v := got["ETag / 304 on a repeated GET"].Verdict; v != "304 to any tag" {
		t.Errorf("verdict %q, want it to say 304 to any tag", v)
	}
}
