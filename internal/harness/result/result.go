package result

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/course"
)

// say is a line for the reader, in the run's language (internal/given/messages):
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
	CPUs     int    `json:"cpus"`
	CPUModel string `json:"cpu_model,omitempty"`
	Go       string `json:"go"`
	OS       string `json:"os"`
	Arch     string `json:"arch"`
	Stack    string `json:"stack"`
	Mongo    string `json:"mongo,omitempty"` // which MongoDB server ran (write-path steps)
	// Runtimes are the sources' own runtimes' versions with ORIGINAL=1
	// ({"node": "20.20.2", "bun": "1.4.5"}): a Node figure is Node's of
	// that version, as a Go figure is Go's.
	Runtimes         map[string]string `json:"runtimes,omitempty"`
	CPUPlan          CPUPlan           `json:"cpu_plan"`
	ServerGOMAXPROCS int               `json:"server_gomaxprocs"`
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
	ClientBound []course.Variant `json:"client_bound_rows,omitempty"`
	// Rows names the variants whose rates the claim compares (empty: every
	// row of the run); JudgesTools says it compares the load tools
	// themselves (step 0's A0), so a tool's limit is what it measures.
	Rows        []course.Variant `json:"rows,omitempty"`
	JudgesTools bool             `json:"judges_tools,omitempty"`
	// NotJudged: the load tool limited a row the claim's rates compare
	// (NoteToolLimits says which and why). Reproduced is then nil and
	// IfJudged keeps what the figures read.
	NotJudged string `json:"not_judged,omitempty"`
	IfJudged  *bool  `json:"if_judged,omitempty"`
	// Unjudged: the claim could not be judged for a reason other than the
	// load tool or the machine (its rows did not run, or did not count
	// where the claim reads them): the reason, in English (Unjudge sets
	// both languages). Reproduced is then nil.
	Unjudged string `json:"unjudged,omitempty"`
	// Ceiling names the rows a claim reads as the server's ceiling: one
	// whose server was not saturated (< ServerIdleLimit busy) measured the
	// load tool, not a ceiling, and the claim is not judged (NoteToolLimits).
	Ceiling []course.Variant `json:"ceiling_rows,omitempty"`
	// Busy: other processes took ≥ BusyLimit of the CPUs of a row the
	// claim's rates compare (busy.go); it names the rows and their shares.
	// Reproduced is then nil and IfJudged keeps what the figures read.
	// BusyRounds: with several rounds, how many were measured busy; they
	// count neither for nor against the claim.
	Busy       string `json:"busy_rows,omitempty"`
	BusyRounds int    `json:"busy_rounds,omitempty"`
	// LooseRate: the claim's rate part is a bound its rows clear many times
	// over (A1: direct-db ≤ 0.5× the ceiling, measured 0.03×), or one that
	// did not set this verdict (B8-batch with its count bar: rateBar); its
	// verdict rests on its counts, and a busy machine does not withhold it.
	LooseRate bool `json:"-"`
	// Vi is the claim's text, measured and tolerance lines in Vietnamese
	// (issue 24): printed under PEAKLOAD_LANG=vi and never stored, so a run
	// records the same JSON whatever language its learner reads.
	Vi ClaimLines `json:"-"`
	// Stated are the values the tolerance line was written from
	// (Tolerate): the verdict is judged by the same values, and a test
	// holds every figure of the line to them.
	Stated []Stated `json:"-"`
}

// Stated is a value that writes itself into a claim's line in a language
// (course.Band, course.Bound, course.Factor).
type Stated interface{ In(l messages.Lang) string }

// Tolerate sets the claim's tolerance line in both languages from one set
// of values: each %s of en and of vi is the matching value written in that
// language, so the figure is typed once, in the value that also judges.
func (c *Claim) Tolerate(en, vi string, ts ...Stated) {
	say := func(format string, l messages.Lang) string {
		args := make([]any, len(ts))
		for i, t := range ts {
			args[i] = t.In(l)
		}
		return fmt.Sprintf(format, args...)
	}
	c.Tolerance, c.Vi.Tolerance, c.Stated = say(en, messages.English), say(vi, messages.Vietnamese), ts
}

// ClaimLines are the lines of a claim a person reads: its text, what was
// measured, the tolerance, and why it was not judged, if it was not.
type ClaimLines struct{ Text, Measured, Tolerance, Unjudged string }

// Unjudge withholds c's verdict for a reason that is neither the load tool
// nor the machine, said in both languages with the same verbs.
func (c *Claim) Unjudge(en, vi string, args ...any) {
	c.Unjudged, c.Vi.Unjudged = fmt.Sprintf(en, args...), fmt.Sprintf(vi, args...)
	c.Reproduced, c.IfJudged = nil, nil
}

// LinesIn is the claim's lines in language l; a line l lacks (a result
// read back from JSON, a claim not yet translated) is the stored English.
func (c Claim) LinesIn(l messages.Lang) ClaimLines {
	out := ClaimLines{c.Article, c.Measured, c.Tolerance, c.Unjudged}
	if l != messages.Vietnamese {
		return out
	}
	if c.Measured == "not measured" { // the scenarios' placeholder before a run
		out.Measured = l.T("verdict.not_measured")
	}
	for _, f := range []struct {
		to *string
		vi string
	}{{&out.Text, c.Vi.Text}, {&out.Measured, c.Vi.Measured}, {&out.Tolerance, c.Vi.Tolerance}, {&out.Unjudged, c.Vi.Unjudged}} {
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

// Print writes the table in the run's language: its title, headers, word
// cells and notes are stored in English and said again through the
// catalogue (messages.Restate); figures and variants' names print as
// stored. tabwriter measures a cell in runes, so Vietnamese diacritics
// (precomposed, one rune a letter) keep the columns aligned.
func (t Table) Print(w io.Writer) {
	say := messages.Restate
	fmt.Fprintf(w, "\n%s\n", say(t.Title))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	for _, row := range append([][]string{t.Header}, t.Rows...) {
		for _, cell := range row {
			fmt.Fprint(tw, say(cell), "\t")
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	for _, n := range t.Notes {
		fmt.Fprintf(w, "  %s\n", say(n))
	}
}

// Verdict is a helper for claims: ok when measured.
func Verdict(ok bool) *bool { return &ok }

// Find returns the run of a variant, or nil.
func (r *Result) Find(variant course.Variant) *Run {
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

// ReadFile reads back a result WriteIn saved (or a reference run); a file
// that does not parse is named in the error.
func ReadFile(path string) (*Result, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Result
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &r, nil
}

// Print writes the step's table and claims for a terminal, in the run's
// language (internal/given/messages). Its numbers keep one convention in both
// (5.3, 81,500: the README's generated tables print the same figures), and
// the stored JSON keeps English.
func (r *Result) Print(w io.Writer) {
	m := r.Machine
	pin := say("bench.not_pinned")
	switch {
	case m.CPUPlan.Pinned && len(m.CPUPlan.Server) == 0: // make probe: only the load's CPUs are ours
		pin = say("bench.load_pinned", m.CPUPlan.Driver)
	case m.CPUPlan.Pinned:
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
		t.Print(w)
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
		// A row measured by its own driver (step 10's stale rows) has no
		// latency or bytes: "-", not a 0.00 that reads as measured.
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t\n",
			x.Variant, x.Route, x.Tool, x.VUs, rowRate(x.RPS), sp, dash(x.Latency.P50, "%.2f"), dash(x.Latency.P95, "%.2f"), dash(x.Latency.P99, "%.2f"), x.Errors,
			dash(x.PerRequest.PublicBytes/1024, "%.2f"), dash(x.PerRequest.DBQueries, "%.2f"), dash(x.PerRequest.RedisBytes, "%.0f"),
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
	if note := othersNote(r.Runs); note != "" {
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
		fmt.Fprint(w, say("bench.claim", c.ID, c.Source.NameIn(lang), t.Text, t.Measured, c.VerdictIn(lang)))
		for i, line := range Wrap(t.Tolerance, ToleranceWidth) {
			if i == 0 {
				fmt.Fprint(w, say("bench.claim_tolerance", line))
				continue
			}
			fmt.Fprint(w, say("bench.claim_tolerance_more", line))
		}
		if len(c.ClientBound) > 0 {
			fmt.Fprint(w, say("bench.client_bound_rows", course.Join(c.ClientBound, ", ")))
		}
	}
	if slices.ContainsFunc(r.Claims, func(c Claim) bool { return c.NotJudged != "" }) {
		fmt.Fprintf(w, "  (%s)\n", ToolLimitRule())
	}
	if slices.ContainsFunc(r.Claims, func(c Claim) bool { return c.Busy != "" || c.BusyRounds > 0 }) {
		fmt.Fprintf(w, "  (%s)\n", BusyRule())
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
	for _, rt := range slices.Sorted(maps.Keys(r.Machine.Runtimes)) {
		s += "; " + rt + " " + r.Machine.Runtimes[rt] // ORIGINAL=1: node 20.20.2; bun 1.4.5
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

func thousands(v float64) string { return Grouped(v, ",") }

// rowRate is a row's req/s in the table: whole above 10, and with two
// decimals below, so that a drill's rate (step 10's stale rows: changes
// per second, 8 changes in 25 s on a loaded machine) reads 0.32, not a 0
// that says nothing ran.
func rowRate(v float64) string {
	if v > 0 && v < 10 {
		return fmt.Sprintf("%.2f", v)
	}
	return thousands(v)
}

// Grouped rounds v to a whole number and separates its thousands with sep
// (the table's "," or a chart's thin space), the sign kept in front.
func Grouped(v float64, sep string) string {
	s := fmt.Sprintf("%.0f", math.Abs(v))
	var b strings.Builder
	if math.Signbit(v) && s != "0" {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteString(sep)
		}
		b.WriteRune(c)
	}
	return b.String()
}
