package audit

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/probe"
	"github.com/peakload/workshop/internal/harness/proc"
	"github.com/peakload/workshop/internal/harness/stacktest"
)

// target resolves a test server's URL with the audit's own loopback rule:
// nothing a test sends can leave 127.0.0.1.
func target(t *testing.T, url string) probe.Target {
	t.Helper()
	tg, err := probe.Resolve(t.Context(), url, false)
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

// verdicts runs the audit and returns each practice's mark, keyed by the
// start of its name; every finding must carry evidence.
func verdicts(t *testing.T, c Config) map[string]Finding {
	t.Helper()
	res, fs, err := Run(t.Context(), c)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tables) != 1 || len(res.Tables[0].Rows) != len(fs) {
		t.Fatalf("the results file's table has %d tables, want the audit's one with %d rows", len(res.Tables), len(fs))
	}
	out := map[string]Finding{}
	for _, f := range fs {
		if f.Evidence == "" || f.Step == "" {
			t.Errorf("%s: no evidence or no step: %+v", f.Practice, f)
		}
		key, _, _ := strings.Cut(f.Practice, ":")
		key, _, _ = strings.Cut(key, " (")
		out[key] = f
		t.Logf("%-50s %-22s %s", f.Practice, f.Cell(), f.Evidence)
	}
	return out
}

func want(t *testing.T, got map[string]Finding, practice, mark string) {
	t.Helper()
	f, ok := got[practice]
	if !ok {
		t.Fatalf("no finding %q among %v", practice, got)
	}
	if f.Mark != mark {
		t.Errorf("%s: %s %s, want %s (evidence: %s)", practice, f.Mark, f.Verdict, mark, f.Evidence)
	}
}

// bare is a deliberately bare net/http server: no ETag, no body limit, a
// plain-text 500 for bad JSON, no header timeout.
func bare() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			b, _ := io.ReadAll(r.Body)
			var v any
			if err := json.Unmarshal(b, &v); err != nil {
				http.Error(w, "bad", http.StatusInternalServerError)
				return
			}
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":1,"name":"item"}`)
	}))
}

func TestBareServerLacksEveryPractice(t *testing.T) {
	srv := bare()
	defer srv.Close()
	got := verdicts(t, Config{Target: target(t, srv.URL+"/items/1"), SlowlorisBound: 2 * time.Second, BodySize: 2 << 20, Cold: 10})
	want(t, got, "ETag / 304 on a repeated GET", Missing)
	want(t, got, "oversized body", Missing)
	want(t, got, "malformed JSON gets a 4xx with a JSON error", Missing)
	want(t, got, "keep-alive honoured", Pass)
	want(t, got, "a slowloris connection closed within 2s", Missing)
	want(t, got, "a cold key", NotJudged) // no query counter named
	want(t, got, "compression", Info)
}

// etagServer answers revalidations right, strong tags compared weakly,
// and counts its "queries": a cold key's misses, coalesced or not.
func etagServer(coalesce bool) (*httptest.Server, func() int) {
	var mu sync.Mutex
	queries := 0
	var flight sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/metrics" {
			mu.Lock()
			defer mu.Unlock()
			io.WriteString(w, "# TYPE db_queries_total counter\n")
			io.WriteString(w, "db_queries_total "+itoa(queries)+"\n")
			return
		}
		if coalesce {
			flight.Lock() // one load at a time, the others wait for it: a crude singleflight
			defer flight.Unlock()
		}
		mu.Lock()
		if coalesce && queries > 0 {
			mu.Unlock()
		} else {
			queries++
			mu.Unlock()
			time.Sleep(20 * time.Millisecond)
		}
		w.Header().Set("ETag", `"v1"`)
		if inm := r.Header.Get("If-None-Match"); inm == `"v1"` || inm == `W/"v1"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		io.WriteString(w, `{"id":1}`)
	}))
	return srv, func() int { mu.Lock(); defer mu.Unlock(); return queries }
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestETagAndColdKeyByTheServicesCounter(t *testing.T) {
	for _, coalesce := range []bool{false, true} {
		srv, _ := etagServer(coalesce)
		got := verdicts(t, Config{Target: target(t, srv.URL+"/items/1"), SlowlorisBound: time.Second, BodySize: 1 << 20,
			Cold: 20, MetricsURL: srv.URL + "/metrics", Queries: "db_queries_total"})
		srv.Close()
		want(t, got, "ETag / 304 on a repeated GET", Pass)
		want(t, got, "ETag", Pass) // the weak form
		want(t, got, "a cold key", map[bool]string{true: Pass, false: Missing}[coalesce])
	}
}

// TestBurst: a server that sheds what it cannot serve is told from one that
// queues it. No throughput is asserted: only which one answered 503.
func TestBurst(t *testing.T) {
	// The shedding server admits a fixed rate (a token bucket: 400 req/s,
	// with half a second of it as slack for a loaded machine's stalls) and
	// answers the rest 503 + Retry-After at once. Its closed loop serves
	// about that rate, the baseline at half of it is never refused, and
	// the burst at twice it is: shedding by rate, not by a lucky overlap.
	const rate, slack = 400.0, 200.0
	var mu sync.Mutex
	tokens, last := slack, time.Now()
	shed := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		now := time.Now()
		tokens = min(slack, tokens+now.Sub(last).Seconds()*rate)
		last = now
		admitted := tokens >= 1
		if admitted {
			tokens--
		}
		mu.Unlock()
		if !admitted {
			w.Header().Set("Retry-After", "1")
			http.Error(w, `{"error":"busy"}`, http.StatusServiceUnavailable)
		}
	}))
	defer shed.Close()
	runs, fs := burst(t.Context(), Config{Target: target(t, shed.URL+"/"), Burst: time.Second, P99Ms: 100})
	if fs[0].Mark != Pass {
		t.Errorf("a server answering 503 + Retry-After when busy: %s %s (%s)", fs[0].Mark, fs[0].Verdict, fs[0].Evidence)
	}
	if len(runs) < 4 {
		t.Errorf("%d runs kept, want the closed loop, the baseline, the burst and at least one recovery window", len(runs))
	}
	var queue sync.Mutex
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		queue.Lock()
		defer queue.Unlock()
		time.Sleep(5 * time.Millisecond)
	}))
	defer slow.Close()
	_, fs = burst(t.Context(), Config{Target: target(t, slow.URL+"/"), Burst: time.Second, P99Ms: 100})
	if fs[0].Mark == Pass {
		t.Errorf("a server that queues everything was said to shed: %s (%s)", fs[0].Verdict, fs[0].Evidence)
	}
}

// stepServer builds a step's server (the reference with solution) and
// starts it on a loopback port, stopped when t ends. It is placed as the
// bench places it (its own CPU, GOMAXPROCS=1), and the audit's burst pins
// its load to the driver's CPUs: the two do not compete for one core.
func stepServer(t *testing.T, dir string, solution bool) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "server")
	args := []string{"build", "-o", bin}
	if solution {
		args = append(args, "-tags", "solution")
	}
	cmd := exec.CommandContext(t.Context(), "go", append(args, "./"+dir)...)
	cmd.Dir = "../../.."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build %s: %v\n%s", dir, err, out)
	}
	p, err := proc.StartServer(context.Background(), bin, nil, proc.PlanCPUs(false), filepath.Join(t.TempDir(), "server.log"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Stop() })
	return p.Target
}

func TestStep0HasTheShellAndNoETag(t *testing.T) {
	t.Parallel() // no burst: its probes wait on the server's timeouts, not on a CPU
	base := stepServer(t, "steps/00-ceilings", false)
	got := verdicts(t, Config{Target: target(t, base+"/empty"), SlowlorisBound: 8 * time.Second})
	want(t, got, "ETag / 304 on a repeated GET", Missing)
	want(t, got, "oversized body", Pass)
	want(t, got, "malformed JSON gets a 4xx with a JSON error", Pass)
	want(t, got, "keep-alive honoured", Pass)
	want(t, got, "a slowloris connection closed within 8s", Pass)
}

// TestStep3: the untouched exercise audits "no 304", the reference "304 ✓".
func TestStep3ExerciseAndReference(t *testing.T) {
	t.Parallel() // no burst: its probes wait on the server's timeouts, not on a CPU
	stacktest.Postgres(t)
	stacktest.Redis(t)
	for _, solution := range []bool{false, true} {
		t.Run(map[bool]string{false: "exercise", true: "reference"}[solution], func(t *testing.T) {
			t.Parallel()
			step3Audit(t, solution)
		})
	}
}

// step3Audit audits step 3's exercise or its reference.
func step3Audit(t *testing.T, solution bool) {
	base := stepServer(t, "steps/03-etag", solution)
	got := verdicts(t, Config{Target: target(t, base+"/etag/items/7"), Post: "/empty", SlowlorisBound: 8 * time.Second})
	if solution {
		want(t, got, "ETag / 304 on a repeated GET", Pass)
		if f := got["ETag / 304 on a repeated GET"]; f.Verdict != "304 ✓" {
			t.Errorf("the reference: %q, want 304 ✓", f.Verdict)
		}
	} else if f := got["ETag / 304 on a repeated GET"]; f.Verdict != "no 304" {
		t.Errorf("the untouched exercise: %q, want no 304 (%s)", f.Verdict, f.Evidence)
	}
	want(t, got, "a slowloris connection closed within 8s", Pass)
	want(t, got, "oversized body", Pass) // every step serves the shell's POST /empty
	want(t, got, "malformed JSON gets a 4xx with a JSON error", Pass)
}

func TestNothingLeavesLoopback(t *testing.T) {
	for _, u := range []string{"http://192.0.2.1/", "http://10.0.0.1:8080/x", "http://[2001:db8::1]/"} {
		if _, err := probe.Resolve(t.Context(), u, false); err == nil {
			t.Errorf("%s was accepted without --allow-remote", u)
		}
	}
	if _, err := probe.Resolve(t.Context(), "http://localhost:1/x", false); err != nil {
		t.Errorf("localhost refused: %v", err)
	}
}

// TestPracticesChecklist keeps docs/practices.md beside the audit: every
// practice the audit judges is named there, and every Vietnamese quote is
// the article's sentence exactly (checked against ../shared/seeds when the
// seeds are beside the checkout).
func TestPracticesChecklist(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "practices.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, p := range []string{"oversized body", "malformed JSON gets a 4xx with a JSON error", "a slowloris connection closed",
		"keep-alive honoured", "ETag / 304 on a repeated GET", "ETag: the weak form of the tag matches", "a cold key",
		"under a burst: sheds load", "after a burst: p99 recovers", "compression", "caching headers"} {
		if !strings.Contains(doc, p) {
			t.Errorf("docs/practices.md does not name the audit's probe %q", p)
		}
	}
	// docs/vi/practices.md names each probe as PEAKLOAD_LANG=vi prints it.
	vi, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "vi", "practices.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{messages.Vietnamese.T("table.audit.p_body", 8), messages.Vietnamese.T("table.audit.p_json"),
		messages.Vietnamese.T("table.audit.p_slowloris", 10*time.Second), messages.Vietnamese.T("table.audit.p_keepalive"),
		messages.Vietnamese.T("table.audit.p_cold", 50), messages.Vietnamese.T("table.audit.p_etag"), messages.Vietnamese.T("table.audit.p_weak"),
		messages.Vietnamese.T("table.audit.p_shed"), messages.Vietnamese.T("table.audit.p_recover")} {
		if !strings.Contains(string(vi), p) {
			t.Errorf("docs/vi/practices.md does not name the audit's probe as it prints under vi: %q", p)
		}
	}
	seeds, _ := filepath.Glob(filepath.Join("..", "..", "..", "..", "shared", "seeds", "*.txt"))
	if len(seeds) == 0 {
		t.Skip("../shared/seeds is not beside this checkout: the quotes are not checked")
	}
	var all strings.Builder
	for _, s := range seeds {
		b, _ := os.ReadFile(s)
		all.Write(b)
	}
	quotes := strings.Split(doc, "«")
	for _, q := range quotes[1:] {
		q, _, _ = strings.Cut(q, "»")
		if !strings.Contains(all.String(), q) {
			t.Errorf("not a sentence of the articles, as quoted: %q", q)
		}
	}
	if len(quotes) < 7 {
		t.Errorf("%d quotes, want one per practice an article motivates", len(quotes)-1)
	}
}
