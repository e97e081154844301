package audit

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/given/messages/messagestest"
	"github.com/peakload/workshop/internal/harness/result"
)

// viNames are the words an audit printed in Vietnamese keeps besides the
// glossary's: HTTP's names (methods, headers and their values), the
// audit's flags, units, docs' paths, and the test servers' own names.
var viNames = strings.Fields(`
	GET POST HTTP JSON ETag If None Match Content Encoding Type Accept Cache Control Last Modified Expires Vary Age
	Connection close Retry After gzip br CDN docs scaling md README text plain charset utf application
	metrics queries URL cold change post process cpu seconds total db items
	MiB ms req CPU max request response connection server timeout route path query
	EOF bad so
`) // EOF: Go's end of a connection; bad: the bare server's body; so: Vietnamese too ("so với")

// TestAuditInVietnamese: findings made by the probes themselves (a bare
// server, one with ETags and a query counter, one with a header timeout),
// every branch of the burst's verdict, and the table the results file
// keeps: under PEAKLOAD_LANG=vi each practice, verdict, evidence sentence
// and step is found in the catalogue and printed in Vietnamese, no English
// word left but the glossary's loanwords and viNames. The stored strings
// stay English (the results JSON keeps one language).
func TestAuditInVietnamese(t *testing.T) {
	fs := probedFindings(t)
	for _, s := range []burstSeen{
		{BaseShed: 5, Base: result.Run{Requests: 400}, ServerBusy: -1},
		{BaseShed: 2, Base: result.Run{Requests: 400}, Shed: 50, WithRetry: 50, ServerBusy: -1},
		{BaseShed: 70, Base: result.Run{Requests: 400, Arrival: &result.Arrival{Scheduled: 400, Missed: 200}}, ServerBusy: -1},
		{ClientBusy: 0.95, ServerBusy: 1},
		{Shed: 50, WithRetry: 50, ServerBusy: -1},
		{Shed: 50, WithRetry: 10, ServerBusy: -1},
		{P99Ms: 100, ServerBusy: -1},
		{P99Ms: 100, Burst: result.Run{Latency: result.Latency{P99: 900}}, ServerBusy: -1},
		{P99Ms: 100, Burst: result.Run{Latency: result.Latency{P99: 900}, Arrival: &result.Arrival{NotSent: 17}}, ServerBusy: 0.5},
		{P99Ms: 100, Burst: result.Run{Latency: result.Latency{P99: 900}}, ServerBusy: 0.3},
		{P99Ms: 100, Burst: result.Run{Latency: result.Latency{P99: 900}}, ServerBusy: 0.97},
	} {
		mark, verdict, why := shedVerdict(s)
		_, where, unpin := pinLoad(false)
		unpin()
		fs = append(fs, Finding{Practice: english("table.audit.p_shed"), Mark: mark, Verdict: verdict, Step: burstStep(),
			Evidence: burstEvidence(where, 800, 3*time.Second, s) + why})
	}
	fs = append(fs, Finding{Practice: english("table.audit.p_recover"), Mark: Pass, Verdict: english("table.audit.recovered", 1500*time.Millisecond),
		Evidence: english("table.audit.recovery", 400.0, recoveryWarmup, "30.1, 2.5", 2.0, 3, "2.4, 2.0, 1.9"), Step: burstStep()})

	kept, err := messagestest.GlossaryWords(filepath.Join("..", "..", ".."), viNames...)
	if err != nil {
		t.Fatal(err)
	}
	restore := messages.Use(messages.Vietnamese)
	defer restore()
	said := func(what, english, vi string) {
		t.Helper()
		if left := messagestest.EnglishLeft(english, vi, kept); len(left) > 0 {
			t.Errorf("the %s %q prints %q under vi, keeping the English %q", what, english, vi, left)
		}
	}
	for _, f := range fs {
		v := f.Said()
		t.Logf("%s | %s | %s | %s", v.Practice, v.Cell(), v.Evidence, v.Step)
		said("practice", f.Practice, v.Practice)
		said("verdict", f.Cell(), v.Cell())
		said("evidence", f.Evidence, v.Evidence)
		said("step", f.Step, v.Step)
		if v.Mark != f.Mark || !strings.HasPrefix(v.Cell(), strings.TrimSuffix(f.Cell(), f.Verdict)) {
			t.Errorf("%s: the mark moved: %q → %q", f.Practice, f.Cell(), v.Cell())
		}
	}
	tb := Table(fs)
	for _, s := range append(append([]string{tb.Title}, tb.Header...), tb.Notes...) {
		said("table word", s, messages.Restate(s))
	}
	if tb.Title != "audit: the articles' practices and ours, checked from outside" || tb.Header[1] != "verdict" {
		t.Errorf("the results file's table moved from English: %q %q", tb.Title, tb.Header)
	}
}

// probedFindings are the shell, ETag, cold-key and headers probes' findings
// on test servers: a bare one (no ETag, no body limit, no header timeout),
// one with ETags and a query counter (a stampede, a coalesced key, a key
// already cached, one changed first), and one with a header timeout.
func probedFindings(t *testing.T) []Finding {
	ctx, client := t.Context(), newClient()
	defer client.CloseIdleConnections()
	bareSrv := bare()
	defer bareSrv.Close()
	guarded := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "max-age=1")
		w.Write([]byte("{}"))
	}))
	guarded.Config.ReadHeaderTimeout = 300 * time.Millisecond
	guarded.Start()
	defer guarded.Close()
	var fs []Finding
	for _, url := range []string{bareSrv.URL, guarded.URL} {
		c := Config{Target: target(t, url+"/items/1"), SlowlorisBound: 1500 * time.Millisecond, BodySize: 1 << 20, Cold: 5}
		c.Defaults()
		fs = append(fs, coldKey(ctx, c, client), bodyLimit(ctx, c, client), malformedJSON(ctx, c, client), keepAlive(ctx, c), slowloris(ctx, c))
		fs = append(fs, etag(ctx, c, client)...)
		fs = append(fs, headers(ctx, c, client)...)
	}
	for _, change := range []string{"", "GET /items/2"} {
		for _, coalesce := range []bool{false, true} {
			srv, _ := etagServer(coalesce)
			c := Config{Target: target(t, srv.URL+"/items/1"), Cold: 5, MetricsURL: srv.URL + "/metrics", Queries: "db_queries_total", Change: change}
			c.Defaults()
			fs = append(fs, coldKey(ctx, c, client), coldKey(ctx, c, client))
			fs = append(fs, etag(ctx, c, client)...)
			srv.Close()
		}
	}
	return fs
}
