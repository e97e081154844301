package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/peakload/workshop/internal/messages"
)

// say is a line for the reader, in the run's language (internal/messages):
// the table's words are translated, its figures and the stored JSON are not.
func say(key string, args ...any) string { return messages.T(key, args...) }

// Result is one bench of one step, as written to results/step-N/*.json.
type Result struct {
	Step      int            `json:"step"`
	Slug      string         `json:"slug"`
	StartedAt time.Time      `json:"started_at"`
	Machine   Machine        `json:"machine"`
	Params    map[string]any `json:"params"`
	Runs      []Run          `json:"runs"`
	// Rounds keeps every round's runs when a variant was measured more
	// than once (RUNS=N): Runs holds their combined rows.
	Rounds [][]Run `json:"rounds,omitempty"`
	Tables []Table `json:"tables,omitempty"`
	// Capacity keeps each capacity search (CAPACITY=1): every probe's
	// open-loop run and the highest rate served under the p99 bound.
	Capacity []Capacity `json:"capacity,omitempty"`
	Claims   []Claim    `json:"claims"`
	Notes    []string   `json:"notes,omitempty"`
}

// Machine describes where the numbers come from: a learner comparing runs
// must see the core count, the stack and whether the server was pinned.
type Machine struct {
	CPUs             int     `json:"cpus"`
	CPUModel         string  `json:"cpu_model,omitempty"`
	Go               string  `json:"go"`
	OS               string  `json:"os"`
	Arch             string  `json:"arch"`
	Stack            string  `json:"stack"`
	Mongo            string  `json:"mongo,omitempty"` // which MongoDB server ran (write-path steps)
	CPUPlan          CPUPlan `json:"cpu_plan"`
	ServerGOMAXPROCS int     `json:"server_gomaxprocs"`
}

// Claim is one source's figure beside ours. Reproduced is computed
// from measured figures and the tolerance the step's README states; nil
// means "not measured in this run" (e.g. QUICK or a tool that is missing).
type Claim struct {
	ID string `json:"id"`
	// Article is the claim's text (the JSON name predates Source: results
	// already recorded keep loading); Source says whose claim it is.
	Article    string `json:"article"`
	Source     Source `json:"source"`
	Measured   string `json:"measured"`
	Tolerance  string `json:"tolerance"`
	Reproduced *bool  `json:"reproduced"`
	// Unstable: with several rounds, some reproduced the claim and some
	// did not (Rounds holds each round's verdict). Reproduced is then the
	// verdict of the combined (median) rows.
	Unstable bool    `json:"unstable,omitempty"`
	Rounds   []*bool `json:"round_verdicts,omitempty"`
	// ClientBound names the client-bound rows of a claim judged on rates
	// (NoteToolLimits): the verdict then compares a load tool's limit.
	ClientBound []string `json:"client_bound_rows,omitempty"`
	// Rows names the variants whose rates the claim compares (empty: every
	// row of the run); JudgesTools says it compares the load tools
	// themselves (step 0's A0), so a tool's limit is what it measures.
	Rows        []string `json:"rows,omitempty"`
	JudgesTools bool     `json:"judges_tools,omitempty"`
	// NotJudged: the load tool limited a row the claim's rates compare
	// (NoteToolLimits says which and why). Reproduced is then nil and
	// IfJudged keeps what the figures read.
	NotJudged string `json:"not_judged,omitempty"`
	IfJudged  *bool  `json:"if_judged,omitempty"`
	// Vi is the claim's text, measured and tolerance lines in Vietnamese
	// (issue 24): printed under PEAKLOAD_LANG=vi and never stored, so a run
	// records the same JSON whatever language its learner reads.
	Vi ClaimLines `json:"-"`
}

// ClaimLines are the three lines of a claim a person reads.
type ClaimLines struct{ Text, Measured, Tolerance string }

// LinesIn is the claim's lines in language l; a line l lacks (a result
// read back from JSON, a claim not yet translated) is the stored English.
func (c Claim) LinesIn(l messages.Lang) ClaimLines {
	out := ClaimLines{c.Article, c.Measured, c.Tolerance}
	if l != messages.Vietnamese {
		return out
	}
	if c.Measured == "not measured" { // the scenarios' placeholder before a run
		out.Measured = l.T("verdict.not_measured")
	}
	for _, f := range []struct {
		to *string
		vi string
	}{{&out.Text, c.Vi.Text}, {&out.Measured, c.Vi.Measured}, {&out.Tolerance, c.Vi.Tolerance}} {
		if f.vi != "" {
			*f.to = f.vi
		}
	}
	return out
}

// Measure sets the claim's measured line in both languages from one set
// of figures: en and vi are the same sentence, with the same verbs.
func (c *Claim) Measure(en, vi string, args ...any) {
	c.Measured = fmt.Sprintf(en, args...)
	c.Vi.Measured = fmt.Sprintf(vi, args...)
}

// MeasureMore appends to both languages' measured lines (see Measure).
func (c *Claim) MeasureMore(en, vi string, args ...any) {
	c.Measured += fmt.Sprintf(en, args...)
	c.Vi.Measured += fmt.Sprintf(vi, args...)
}

// Table is a step's own summary of its runs (step 9's framework table,
// shaped like article D's), printed after the main table.
type Table struct {
	Title  string     `json:"title"`
	Header []string   `json:"header"`
	Rows   [][]string `json:"rows"`
	Notes  []string   `json:"notes,omitempty"`
}

// Verdict is a helper for claims: ok when measured.
func Verdict(ok bool) *bool { return &ok }

// ThisMachine fills Machine for the current host.
func ThisMachine(stack string, plan CPUPlan) Machine {
	return Machine{CPUs: runtime.NumCPU(), CPUModel: cpuModel(), Go: runtime.Version(), OS: runtime.GOOS,
		Arch: runtime.GOARCH, Stack: stack, CPUPlan: plan, ServerGOMAXPROCS: plan.Procs()}
}

func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// Find returns the run of a variant, or nil.
func (r *Result) Find(variant string) *Run {
	for i := range r.Runs {
		if r.Runs[i].Variant == variant {
			return &r.Runs[i]
		}
	}
	return nil
}

// Write saves the result as results/step-N/<UTC time>.json and latest.json.
func (r *Result) Write(dir string) (string, error) {
	return r.WriteIn(filepath.Join(dir, fmt.Sprintf("step-%d", r.Step)))
}

// WriteIn saves the result as d/<UTC time>.json and d/latest.json (make
// probe and make audit: results/probe/, results/audit/).
func (r *Result) WriteIn(d string) (string, error) {
	if err := os.MkdirAll(d, 0o755); err != nil {
		return "", err
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return "", err
	}
	b = append(b, '\n')
	name := filepath.Join(d, r.StartedAt.UTC().Format("20060102T150405Z")+".json")
	if err := os.WriteFile(name, b, 0o644); err != nil {
		return "", err
	}
	return name, os.WriteFile(filepath.Join(d, "latest.json"), b, 0o644)
}

// Print writes the step's table and claims for a terminal, in the run's
// language (internal/messages). Its numbers keep one convention in both
// (5.3, 81,500: the README's generated tables print the same figures), and
// the stored JSON keeps English.
func (r *Result) Print(w io.Writer) {
	m := r.Machine
	pin := say("bench.not_pinned")
	if m.CPUPlan.Pinned {
		pin = say("bench.pinned", m.CPUPlan.Server, m.ServerGOMAXPROCS, m.CPUPlan.Services, m.CPUPlan.Driver)
	}
	if r.Step < 0 { // make probe / make audit: a service of the user's, not a step
		fmt.Fprint(w, say("bench.head_service", r.Slug, m.CPUs, pin))
	} else {
		fmt.Fprint(w, say("bench.head", r.Step, r.Slug, m.CPUs, pin))
	}
	fmt.Fprint(w, say("bench.stack", r.stackLine()))
	fmt.Fprint(w, say("bench.numbers"))
	r.printRuns(w)
	r.printRunNotes(w)
	for _, t := range r.Tables {
		fmt.Fprintf(w, "\n%s\n", t.Title)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, strings.Join(t.Header, "\t")+"\t")
		for _, row := range t.Rows {
			fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
		}
		tw.Flush()
		for _, n := range t.Notes {
			fmt.Fprintf(w, "  %s\n", messages.Restate(n))
		}
	}
	r.printClaims(w)
	for _, n := range r.Notes {
		fmt.Fprint(w, say("bench.note", messages.Restate(n)))
	}
}

// printRuns writes the table: one row per variant, its rate and its costs.
func (r *Result) printRuns(w io.Writer) {
	plan := r.Machine.CPUPlan
	rounds := 0
	for _, x := range r.Runs {
		if x.Spread != nil {
			rounds = max(rounds, x.Spread.Rounds)
		}
	}
	spread := ""
	if rounds > 1 {
		spread = say("bench.spread_col")
		fmt.Fprint(w, say("bench.rounds", rounds, r.rowRule()))
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, say("bench.header_rate")+spread+say("bench.header_costs"))
	for _, x := range r.Runs {
		sp := ""
		if rounds > 1 {
			sp = "-\t"
			if x.Spread != nil {
				sp = thousands(x.Spread.RPSMin) + "–" + thousands(x.Spread.RPSMax) + "\t"
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s%.2f\t%.2f\t%.2f\t%d\t%.2f\t%s\t%s\t%s\t%s\t%s\t\n",
			x.Variant, x.Route, x.Tool, x.VUs, thousands(x.RPS), sp, x.Latency.P50, x.Latency.P95, x.Latency.P99, x.Errors,
			x.PerRequest.PublicBytes/1024, dash(x.PerRequest.DBQueries, "%.2f"), dash(x.PerRequest.RedisBytes, "%.0f"),
			dash(x.PerRequest.ServerCPUus, "%.0f"), dash(x.RPS*x.PerRequest.ServerCPUus/1e4, "%.0f%%"), clientCells(x, plan))
	}
	tw.Flush()
}

// printRunNotes explains the table's busy column and says what limited
// which row: the rules, each run's own counters, its first error.
func (r *Result) printRunNotes(w io.Writer) {
	m := r.Machine
	if m.ServerGOMAXPROCS > 1 {
		fmt.Fprint(w, say("bench.busy_many", 100*m.ServerGOMAXPROCS, m.ServerGOMAXPROCS))
	} else {
		fmt.Fprint(w, say("bench.busy_one"))
	}
	if slices.ContainsFunc(r.Runs, func(x Run) bool { return x.ClientBound }) {
		fmt.Fprintf(w, "  (%s)\n", ClientBoundRule())
	}
	if note := SharedCPUNote(r.Runs, m.CPUPlan); note != "" {
		fmt.Fprintf(w, "  (%s)\n", note)
	}
	for _, x := range r.Runs {
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(x.Extra)) {
			parts = append(parts, fmt.Sprintf("%s %.3g", k, x.Extra[k]))
		}
		if len(parts) > 0 {
			fmt.Fprintf(w, "  %s: %s\n", x.Variant, strings.Join(parts, ", "))
		}
	}
	for _, x := range r.Runs {
		if x.FirstError != "" {
			fmt.Fprint(w, say("bench.first_error", x.Variant, x.FirstError))
		}
	}
}

// printClaims writes each claim beside ours, in the run's language: its
// text, what was measured, the verdict and the tolerance it was judged by.
func (r *Result) printClaims(w io.Writer) {
	if len(r.Claims) > 0 {
		fmt.Fprint(w, say("bench.claims"))
	}
	lang := messages.Current()
	for _, c := range r.Claims {
		t := c.LinesIn(lang)
		fmt.Fprint(w, say("bench.claim", c.ID, c.Source.NameIn(lang), t.Text, t.Measured, c.VerdictIn(lang), t.Tolerance))
		if len(c.ClientBound) > 0 {
			fmt.Fprint(w, say("bench.client_bound_rows", strings.Join(c.ClientBound, ", ")))
		}
	}
	if slices.ContainsFunc(r.Claims, func(c Claim) bool { return c.NotJudged != "" }) {
		fmt.Fprintf(w, "  (%s)\n", ToolLimitRule())
	}
}

// stackLine says which databases the numbers were measured against: the
// same step gives other absolute figures natively and under Compose.
func (r *Result) stackLine() string {
	var s string
	switch r.Machine.Stack {
	case "native":
		s = say("bench.stack_native")
	case "compose":
		s = say("bench.stack_compose")
	case "compose-bench":
		s = say("bench.stack_compose_bench")
	case "none":
		s = say("bench.stack_none")
	default:
		s = r.Machine.Stack
	}
	if r.Machine.Mongo != "" {
		s += "; MongoDB: " + r.Machine.Mongo
	}
	if ms, ok := r.Params["added_latency_ms"].(float64); ok && ms > 0 {
		s += say("bench.latency", ms)
	}
	return s
}

func (r *Result) rowRule() string {
	if best, _ := r.Params["rows"].(string); best == "best" {
		return say("bench.fastest")
	}
	return say("bench.median")
}

// dash is v in format, or "-" when nothing was counted.
func dash(v float64, format string) string {
	if v == 0 {
		return "-"
	}
	return fmt.Sprintf(format, v)
}

func thousands(v float64) string {
	s := fmt.Sprintf("%.0f", v)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Measure runs one variant with its tool and fills the per-request costs
// from the server's counters, scraped when the timed window opens and closes.
func Measure(ctx context.Context, o Options, v Variant, plan CPUPlan, dir string) (Run, error) {
	if v.Setup != nil {
		if err := v.Setup(ctx); err != nil {
			return Run{}, fmt.Errorf("%s: setup: %w", v.Name, err)
		}
	}
	if v.Settle {
		// Every event of the variant must be in the window, or the events
		// accepted during a warm-up would be persisted inside it.
		o.Warmup = 0
	}
	var before, after Counters
	var scrapeErr error
	var series *Sampler
	var cpu0, cpu1 time.Duration // this process's CPU inside the window: the Go driver's
	var db0 float64              // the database's CPU seconds when the window opened
	mark := func(phase string) {
		series.Mark(phase)
		if phase == "start" && v.DatabaseCPU != nil {
			db0 = v.DatabaseCPU()
		}
		if phase != "start" {
			cpu1 = selfCPU()
		}
		c, err := Scrape(ctx, o.Target)
		if err != nil {
			scrapeErr = err
		}
		if phase == "start" {
			before = c
			cpu0 = selfCPU()
		} else {
			after = c
		}
	}
	if v.Direct != nil {
		r, err := v.Direct(ctx, o)
		r.Variant, r.Route = v.Name, v.Route
		if r.Tool == "" { // a Direct variant may say what drove it (step 10: "go+haproxy")
			r.Tool = "direct"
		}
		return r, err
	}
	_, pattern, _ := strings.Cut(v.Route, " ")
	series = StartSeries(ctx, o.Target, pattern, v.SeriesEvery)
	defer series.Finish(ctx)
	o.series = series
	var r Run
	var err error
	switch {
	case v.Tool == "wrk":
		r, err = DriveWrk(ctx, o, v, plan, dir, mark)
	case v.Tool == "k6":
		r, err = DriveK6(ctx, o, v, o.K6, plan, dir, mark)
	default: // the Go driver, closed or open loop: its CPU is this process's
		if o.Rate > 0 {
			r, err = DriveOpen(ctx, o, v, mark)
		} else {
			r, err = Drive(ctx, o, v, mark)
		}
		if r.Requests > 0 {
			r.ClientCPUus = float64((cpu1 - cpu0).Microseconds()) / float64(r.Requests)
		}
	}
	if err != nil {
		return r, err
	}
	if scrapeErr != nil {
		return r, scrapeErr
	}
	perRequestCosts(&r, before, after, pattern, plan)
	if v.Settle {
		if err := settle(ctx, o.Target, before, pattern, &r); err != nil {
			return r, err
		}
	}
	recordDatabaseCPU(&r, v, db0)
	r.Series = series.Finish(ctx) // after the settle: the drain is part of the picture
	return r, nil
}

// perRequestCosts divides the window's counters by what the server counted
// for the route in the same window (by the driver's count when the server
// counted none), and flags the row when the load tool was the limit.
func perRequestCosts(r *Run, before, after Counters, pattern string, plan CPUPlan) {
	served := Delta(before, after, "peakload_http_requests_total{route="+pattern+"}")
	if served <= 0 {
		served = float64(r.Requests)
	}
	if served <= 0 {
		return
	}
	w := RequestWork(before, after, pattern) // the counts (counts.go: exact per completed request)
	r.ExactCounts, r.Served = w.Exact, w.Requests
	r.PerRequest.DBQueries = w.Per(w.DBQueries)
	r.PerRequest.RedisBytes = w.Per(w.RedisBytes)
	// CPU is spent, not counted per request: the window's edges stay in it.
	r.PerRequest.ServerCPUus = Delta(before, after, "process_cpu_seconds_total") * 1e6 / served
	for k, x := range extras(before, after, pattern, served, w) {
		if r.Extra == nil {
			r.Extra = map[string]float64{}
		}
		r.Extra[k] = x
	}
	flagClientBound(r, plan)
}

// recordDatabaseCPU records the database's CPU over the variant, from
// db0 seconds when the window opened to now (after the settle), per event:
// a write variant's events are the ones it accepted and persisted, a read
// variant's its requests. Nothing when the variant does not read it.
func recordDatabaseCPU(r *Run, v Variant, db0 float64) {
	if v.DatabaseCPU == nil {
		return
	}
	cpuS := v.DatabaseCPU() - db0
	events := r.Extra["persisted"]
	if events == 0 {
		events = r.Served
	}
	DatabaseCPU(r, cpuS, r.DurationS+r.Extra["additional_s"], events)
}

// DatabaseCPU records what the database's processes spent (cpuS seconds)
// over busyS seconds of work for events events: per event, in µs
// (db_cpu_us_per_doc), and as a share of one core (db_cpu_share, the
// author's "Mongo CPU" column of article B's repository). Nothing is
// recorded when the CPU was not measured.
func DatabaseCPU(r *Run, cpuS, busyS, events float64) {
	if cpuS <= 0 || events <= 0 || busyS <= 0 {
		return
	}
	if r.Extra == nil {
		r.Extra = map[string]float64{}
	}
	r.Extra["db_cpu_us_per_doc"] = cpuS * 1e6 / events
	r.Extra["db_cpu_share"] = cpuS / busyS
}

// settleStall ends settle early when persisted stops moving: the batcher
// retries a failing database with a backoff of at most 2 s, so 30 s without
// progress is not a slow flush.
const settleStall = 30 * time.Second

// settle polls the server until persisted + rejected == accepted (an
// event the database refused for good is dead-lettered, not persisted,
// and never will be), then reports the
// write side: the additional time after the load, events persisted per
// second over the whole work, and database round trips per request. The
// round trips are mostly a batcher's, on no request's behalf, so they are
// the global counters, read once nothing is in flight: no warm-up before
// the window (Measure), every accepted event persisted, and divided by the
// requests the server counted by then, those that completed after the
// window closed included, since their events' writes are in the count.
func settle(ctx context.Context, target string, before Counters, route string, r *Run) error {
	start := time.Now()
	deadline := start.Add(3 * time.Minute)
	last, moved := -1.0, start // persisted, and when it last grew
	for {
		c, err := Scrape(ctx, target)
		if err != nil {
			return err
		}
		done := c["peakload_events_persisted_total"] + c["peakload_events_rejected_total"]
		if done != last {
			last, moved = done, time.Now()
		}
		if done >= c["peakload_events_accepted_total"] {
			extra := time.Since(start).Seconds()
			if r.Extra == nil {
				r.Extra = map[string]float64{}
			}
			persisted := Delta(before, c, "peakload_events_persisted_total")
			r.Extra["additional_s"] = extra
			r.Extra["accepted"] = Delta(before, c, "peakload_events_accepted_total")
			r.Extra["persisted"] = persisted
			if rejected := Delta(before, c, "peakload_events_rejected_total"); rejected > 0 {
				r.Extra["rejected"] = rejected // dead-lettered: the database refused them for good
			}
			r.Extra["persisted_per_s"] = persisted / (r.DurationS + extra)
			r.Extra["accepted_per_s"] = r.Extra["accepted"] / r.DurationS
			if served := Delta(before, c, "peakload_http_requests_total{route="+route+"}"); served > 0 {
				r.Extra["db_round_trips_per_req"] = (Delta(before, c, "peakload_mongo_commands_total{cmd=insert}") +
					Delta(before, c, "peakload_mongo_commands_total{cmd=update}")) / served
				r.Extra["db_writes_per_req"] = Delta(before, c, "peakload_db_writes_total") / served
			}
			return nil
		}
		if time.Since(moved) > settleStall {
			return fmt.Errorf("%s: %.0f events accepted, %.0f persisted, and that count has not moved for %s: "+
				"either the write does not add to metrics.EventsPersisted (step 7: your Reduce must), or the database "+
				"is stuck (the server's log says; FerretDB: make down, make up)", r.Variant,
				c["peakload_events_accepted_total"], c["peakload_events_persisted_total"], settleStall)
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: %.0f events accepted but only %.0f persisted after 3 minutes", r.Variant,
				c["peakload_events_accepted_total"], c["peakload_events_persisted_total"])
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// extras are the step-specific counters, per request or as ratios; only
// the ones a run moved are kept.
func extras(before, after Counters, route string, served float64, w Work) map[string]float64 {
	d := func(key string) float64 { return Delta(before, after, key) }
	x := map[string]float64{}
	ratio := func(name, hit, miss string) {
		if h, m := d(hit), d(miss); h+m > 0 {
			x[name] = h / (h + m)
		}
	}
	ratio("redis_hit_ratio", "peakload_cache_lookups_total{result=hit,tier=redis}", "peakload_cache_lookups_total{result=miss,tier=redis}")
	ratio("memory_hit_ratio", "peakload_cache_lookups_total{result=hit,tier=memory}", "peakload_cache_lookups_total{result=miss,tier=memory}")
	if g := w.Per(w.RedisGets); g > 0 {
		x["redis_gets_per_req"] = g
	}
	if q := d("peakload_db_queries_total"); q > 0 {
		x["db_queries_in_window"] = q // every query sent, by requests or not (step 4's per expiry)
	}
	// Counted in requests, but not per request: the window's edges stay in these.
	for name, key := range map[string]string{
		"fail_open_per_req":  "peakload_cache_fail_open_total",
		"coalesced_per_req":  "peakload_coalesced_total",
		"status_304_share":   "peakload_http_requests_total{status=304}",
		"status_503_share":   "peakload_http_requests_total{status=503}",
		"body_bytes_per_req": "peakload_http_response_bytes_total{route=" + route + "}",
	} {
		if v := d(key); v > 0 {
			x[name] = v / served
		}
	}
	if len(x) == 0 {
		return nil
	}
	return x
}
