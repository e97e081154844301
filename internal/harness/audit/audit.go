// Package audit checks the practices the steps teach (the articles' and
// ours: docs/practices.md says which) on any HTTP service from outside
// (make audit URL=…): each practice is a black-box probe with a verdict,
// the evidence it rests on, and the workshop step that teaches it.
package audit

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/probe"
	"github.com/peakload/workshop/internal/harness/proc"
	"github.com/peakload/workshop/internal/harness/result"
)

// Step is the step number an audit's results carry (not a step of ours).
const Step = -2

// Marks of a verdict: the practice is there, missing, not judged (the
// probe could not tell, and says why), or reported only.
const (
	Pass      = "✓"
	Missing   = "✗"
	NotJudged = "–"
	Info      = "info"
)

// Finding is one row of the audit: a practice, its verdict, what was
// observed, and the step that teaches it.
type Finding struct {
	Practice string `json:"practice"`
	Mark     string `json:"mark"`
	Verdict  string `json:"verdict"` // "304 ✓", "no 304"…
	Evidence string `json:"evidence"`
	Step     string `json:"step"`
}

// english is a message of the audit's table in English: what a finding
// stores (results/audit/*.json keeps one language). Said is how a person
// reads it.
func english(key string, args ...any) string { return messages.English.T(key, args...) }

// Said is the finding in the run's language (PEAKLOAD_LANG), for a
// person: each string is found back in the catalogue from its English
// (messages.Restate), its figures carried over; the mark stays.
func (f Finding) Said() Finding {
	say := messages.Restate
	f.Practice, f.Verdict, f.Evidence, f.Step = say(f.Practice), say(f.Verdict), say(f.Evidence), say(f.Step)
	return f
}

// Cell is the verdict as the table prints it: a pass carries its ✓, a
// missing practice its ✗, a practice not judged its –.
func (f Finding) Cell() string {
	switch f.Mark {
	case Missing, NotJudged:
		return f.Mark + " " + f.Verdict
	}
	return f.Verdict
}

// Config is what to audit and how hard.
type Config struct {
	Target probe.Target
	// Post is the path a body is sent to (the shell's probes), "" for
	// the URL's own path.
	Post string
	// ColdPath is the cold-key probe's path ("" for the URL's); Change,
	// "METHOD /path", is sent just before it (a write that invalidates).
	ColdPath string
	Change   string
	Cold     int  // concurrent identical requests for the cold key
	NoPin    bool // PEAKLOAD_NO_PIN: the load keeps every CPU (config.Config.NoPin)
	// MetricsURL and Queries name the service's query counter, read
	// around the cold key's requests.
	MetricsURL string
	Queries    string
	// ServerCPU, when set, reads the service's CPU seconds so far instead
	// of MetricsURL's process_cpu_seconds_total (-1: unknown): a service
	// whose process the caller started and can read in /proc (the tests'
	// nginx), which exports no such counter.
	ServerCPU func() float64
	// SlowlorisBound is how long a trickling client may hold a connection.
	SlowlorisBound time.Duration
	// BodySize is the oversized body's size.
	BodySize int
	// Burst is the open-loop burst's length; 0 skips the burst.
	Burst time.Duration
	// BurstPost bursts the Post path with Body instead of GETs of the URL.
	BurstPost bool
	Body      string
	P99Ms     float64 // the burst's bound on p99 (params.json's capacity.p99_ms)
}

// Defaults fills what was left zero.
func (c *Config) Defaults() {
	if c.Post == "" {
		c.Post = c.Target.Path
	}
	if c.ColdPath == "" {
		c.ColdPath = c.Target.Path
	}
	if c.Cold == 0 {
		c.Cold = 50
	}
	if c.SlowlorisBound == 0 {
		c.SlowlorisBound = 10 * time.Second
	}
	if c.BodySize == 0 {
		c.BodySize = 8 << 20
	}
	if c.Body == "" {
		c.Body = "{}"
	}
	if c.P99Ms == 0 {
		c.P99Ms = 100
	}
}

// Run audits the service: the slowloris probe holds its one connection
// while the others run in turn (the cold key first, while its key is
// still cold; the burst last, so its queue disturbs nothing else).
func Run(ctx context.Context, c Config) (*result.Result, []Finding, error) {
	c.Defaults()
	if err := c.checkMetrics(ctx); err != nil {
		return nil, nil, err
	}
	res := &result.Result{Step: Step, Slug: "audit of " + c.Target.Host + c.Target.Path, StartedAt: time.Now().UTC(),
		Machine: proc.ThisMachine("external", result.CPUPlan{}),
		Params: map[string]any{"url": "http://" + c.Target.Host + c.Target.Path, "address": c.Target.Base, "post": c.Post,
			"slowloris_bound_s": c.SlowlorisBound.Seconds(), "body_limit_probe_bytes": c.BodySize, "cold_requests": c.Cold}}
	client := newClient()
	defer client.CloseIdleConnections()
	// One request first, before any probe or load: a service that
	// refuses, fails or hangs ends the audit here with one clear error
	// naming its URL, after one request's timeout, not a table of "not
	// judged" rows written down as a result.
	cold, err := c.first(ctx, client)
	if err != nil {
		return nil, nil, err
	}
	slowCtx, stopSlow := context.WithCancel(ctx)
	defer stopSlow()
	var slow Finding
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); slow = slowloris(slowCtx, c) }()
	if cold == nil {
		f := coldKey(ctx, c, client)
		cold = &f
	}
	out := []Finding{*cold}
	out = append(out, etag(ctx, c, client)...)
	out = append(out, bodyLimit(ctx, c, client), malformedJSON(ctx, c, client), keepAlive(ctx, c))
	wg.Wait()
	out = append(out, slow)
	if c.Burst > 0 {
		runs, fs := burst(ctx, c)
		res.Runs = runs
		out = append(out, fs...)
	}
	out = append(out, headers(ctx, c, client)...)
	res.Tables = []result.Table{Table(out)}
	if err := ctx.Err(); err != nil {
		return res, out, fmt.Errorf("%s: %w", messages.T("table.audit.interrupted"), err)
	}
	return res, out, nil
}

// newClient is the probes' client: no transparent gzip (the headers probe
// reports what the service sends), enough idle connections for the cold key.
func newClient() *http.Client {
	return &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: 64}}
}

// Table is the audit as the results file and make report keep it.
func Table(fs []Finding) result.Table {
	t := result.Table{Title: english("table.audit.title"),
		Header: messages.English.Words("table.audit.practice", "table.audit.verdict", "table.audit.evidence", "table.audit.step")}
	for _, f := range fs {
		t.Rows = append(t.Rows, []string{f.Practice, f.Cell(), f.Evidence, f.Step})
	}
	t.Notes = []string{english("table.audit.note")}
	return t
}

// url is the address a probe sends to: the resolved loopback address,
// never a second lookup of the name.
func (c Config) url(path string) string { return c.Target.Base + path }

// newRequest builds a request with the Host the user's URL named.
func (c Config) newRequest(ctx context.Context, method, path string, body []byte) (*http.Request, error) {
	var req *http.Request
	var err error
	if body != nil {
		req, err = http.NewRequestWithContext(ctx, method, c.url(path), bytesReader(body))
	} else {
		req, err = http.NewRequestWithContext(ctx, method, c.url(path), nil)
	}
	if err != nil {
		return nil, err
	}
	req.Host = c.Target.Host
	return req, nil
}
