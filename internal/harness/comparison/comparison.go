// Package comparison sets two runs of one step side by side — before and
// after a change of code, of machine, of LATENCY — per variant and figure,
// with the change and whether it is more than the noise between rounds.
//
// The statistics are golang.org/x/perf's benchmath, as benchstat uses them:
// each figure's rounds (RUNS=N) are a sample, summarised by their median,
// and two samples are compared with a Mann-Whitney U-test, which assumes
// nothing about how the noise is distributed. A change whose p-value is
// above 0.05 is printed "~": these rounds cannot tell it from noise.
package comparison

import (
	"fmt"
	"github.com/peakload/workshop/internal/given/messages"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"golang.org/x/perf/benchmath"

	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/result"
)

// Confidence is the level of the ± intervals, benchstat's default.
const Confidence = 0.95

// Figure is one column of a step's table that can be compared.
type Figure struct {
	Name  string
	Value func(*result.Run) float64
}

// figures are the table's columns; the per-request counters are what the
// claims rest on. A step's own counters (Extra) are added after them. The
// names are English, said in the reader's language when printed. A
// function, not a variable: a package-level variable is set before init
// registers this package's texts (messages.Add), and would hold the keys.
func figures() []Figure {
	return []Figure{
		{"req/s", func(x *result.Run) float64 { return x.RPS }},
		// Errors beside the rate: a run of errors is fast and measures nothing
		// (shown only when a side had any).
		{messages.English.T("table.fig.errors"), func(x *result.Run) float64 { return float64(x.Errors) }},
		{"p50 ms", func(x *result.Run) float64 { return x.Latency.P50 }},
		{"p99 ms", func(x *result.Run) float64 { return x.Latency.P99 }},
		{messages.English.T("table.fig.db"), func(x *result.Run) float64 { return x.PerRequest.DBQueries }},
		{messages.English.T("table.fig.redis"), func(x *result.Run) float64 { return x.PerRequest.RedisBytes }},
		{messages.English.T("table.fig.cpu"), func(x *result.Run) float64 { return x.PerRequest.ServerCPUus }},
		{messages.English.T("table.fig.received"), func(x *result.Run) float64 { return x.PerRequest.PublicBytes }},
	}
}

// Side is one run's sample of one figure of one variant.
type Side struct {
	Values  []float64 // one per round, ascending
	Summary benchmath.Summary
	sample  *benchmath.Sample
}

// Row is one variant's figure in A and in B.
type Row struct {
	Variant course.Variant
	A, B    *Side // nil when that run has no such variant
	// Comparison is benchmath's test of A against B (when both exist).
	Comparison benchmath.Comparison
}

// Change is B's centre against A's, as a fraction (+0.25 = 25 % more);
// NaN when it cannot be said.
func (r Row) Change() float64 {
	if r.A == nil || r.B == nil || r.A.Summary.Center == 0 {
		return math.NaN()
	}
	return r.B.Summary.Center/r.A.Summary.Center - 1
}

// Significant says the test rejected "same distribution" at its alpha.
func (r Row) Significant() bool {
	return r.A != nil && r.B != nil && r.Comparison.P <= r.Comparison.Alpha
}

// Table is one figure over every variant.
type Table struct {
	Figure string
	Rows   []Row
}

// Compare builds a table per figure that either run measured, over the
// variants of A then those only B has.
func Compare(a, b *result.Result) []Table {
	var variants []course.Variant
	for _, r := range []*result.Result{a, b} {
		for _, x := range r.Runs {
			if !slices.Contains(variants, x.Variant) {
				variants = append(variants, x.Variant)
			}
		}
	}
	all := figures()
	for _, k := range extraKeys(a, b) {
		all = append(all, Figure{strings.ReplaceAll(string(k), "_", " "), func(x *result.Run) float64 { return x.Extra[k] }})
	}
	var out []Table
	for _, f := range all {
		t := Table{Figure: f.Name}
		measured := false
		for _, v := range variants {
			row := Row{Variant: v, A: side(a, v, f), B: side(b, v, f)}
			if row.A == nil && row.B == nil {
				continue
			}
			for _, s := range []*Side{row.A, row.B} {
				if s != nil && slices.ContainsFunc(s.Values, func(x float64) bool { return x != 0 }) {
					measured = true
				}
			}
			if row.A != nil && row.B != nil {
				row.Comparison = benchmath.AssumeNothing.Compare(row.A.sample, row.B.sample)
			}
			t.Rows = append(t.Rows, row)
		}
		if measured {
			out = append(out, t)
		}
	}
	return out
}

// rounds are a result's runs per round: every round when it kept them
// (RUNS=N), else its one row per variant.
func rounds(r *result.Result) [][]result.Run {
	if len(r.Rounds) > 0 {
		return r.Rounds
	}
	return [][]result.Run{r.Runs}
}

func side(r *result.Result, variant course.Variant, f Figure) *Side {
	var vals []float64
	for _, round := range rounds(r) {
		for i := range round {
			if round[i].Variant == variant {
				vals = append(vals, f.Value(&round[i]))
			}
		}
	}
	if len(vals) == 0 {
		return nil
	}
	s := benchmath.NewSample(vals, &benchmath.DefaultThresholds)
	return &Side{Values: s.Values, sample: s, Summary: benchmath.AssumeNothing.Summary(s, Confidence)}
}

// extraKeys are the step's own counters either run reported, sorted.
func extraKeys(rs ...*result.Result) []result.Key {
	seen := map[result.Key]bool{}
	for _, r := range rs {
		for _, x := range r.Runs {
			for k := range x.Extra {
				if k != result.Rounds && k != result.RPSWorstRound { // step 9's bookkeeping of its rounds
					seen[k] = true
				}
			}
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// RoundsForATest is the fewest rounds per side with which benchmath's
// U-test can call any difference significant at its default alpha: found
// by asking it about two samples as far apart as samples can be.
func RoundsForATest() int {
	for n := 1; n <= 20; n++ {
		a, b := make([]float64, n), make([]float64, n)
		for i := range n {
			a[i], b[i] = float64(i), float64(100+i)
		}
		t := &benchmath.DefaultThresholds
		c := benchmath.AssumeNothing.Compare(benchmath.NewSample(a, t), benchmath.NewSample(b, t))
		if c.P <= c.Alpha {
			return n
		}
	}
	return 0
}

// Print writes the comparison as benchstat would: per figure, A and B
// (median ± the 95 % interval, when the rounds are enough for one), the
// change, and the test's verdict, then the claims of both runs.
func Print(w io.Writer, aName, bName string, a, b *result.Result) {
	switch {
	case b.Step < 0 && a.Slug != b.Slug: // two probes: say both services
		fmt.Fprintf(w, "A: %s\nB: %s\n", a.Slug, b.Slug)
	case b.Step < 0: // make probe: a service of the user's, not a step
		fmt.Fprintf(w, "%s\n", b.Slug)
	default:
		fmt.Fprint(w, messages.T("compare.head", b.Step, b.Slug))
	}
	fmt.Fprintf(w, "  A: %s  (%s)\n  B: %s  (%s)\n", aName, describe(a), bName, describe(b))
	if ua, ub := a.Params["url"], b.Params["url"]; b.Step < 0 && fmt.Sprint(ua) != fmt.Sprint(ub) {
		fmt.Fprint(w, messages.T("compare.other_url", orNone(ua), orNone(ub)))
	}
	for _, d := range differences(a, b) {
		fmt.Fprint(w, messages.T("compare.differ", d))
	}
	need := RoundsForATest()
	few := false
	for _, t := range Compare(a, b) {
		fmt.Fprintln(w)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		name := messages.Restate(t.Figure) // a counter's own name (Extra) stays as it is
		// Names padded to one width (in runes: Vietnamese diacritics are one
		// each): left-aligned in a right-aligned table.
		width := len([]rune(name))
		for _, r := range t.Rows {
			width = max(width, len([]rune(r.Variant)))
		}
		pad := func(s string) string { return s + strings.Repeat(" ", width-len([]rune(s))) }
		fmt.Fprintf(tw, "%s\tA\tB\tvs A\t\t\n", pad(name))
		for _, r := range t.Rows {
			delta, test := "", ""
			switch {
			case r.A == nil || r.B == nil:
				delta = messages.T("compare.only_in", map[bool]string{true: "B", false: "A"}[r.A == nil])
			case min(len(r.A.Values), len(r.B.Values)) < need:
				// Too few rounds for any test: the change as measured, flagged.
				delta, test = pct(r.Change())+" ¹", "("+r.Comparison.String()+")"
				few = true
			default:
				delta, test = r.Comparison.FormatDelta(r.A.Summary.Center, r.B.Summary.Center), "("+r.Comparison.String()+")"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t\n", pad(string(r.Variant)), cell(r.A), cell(r.B), delta, test)
		}
		tw.Flush()
	}
	if few {
		fmt.Fprint(w, messages.T("compare.few_rounds", need, need, max(need, 5), rerun(b, max(need, 5))))
	}
	fmt.Fprint(w, messages.T("compare.legend", benchmath.DefaultThresholds.CompareAlpha))
	printClaims(w, a, b)
}

// rerun is the command that measures b again with n rounds: a step's
// bench, or the probe of the URL a probe's results name (step < 0).
func rerun(b *result.Result, n int) string {
	if u, ok := b.Params["url"].(string); ok && b.Step < 0 {
		return fmt.Sprintf("make probe URL=%s RUNS=%d", u, n)
	}
	return fmt.Sprintf("make step-%d bench RUNS=%d", b.Step, n)
}

// cell is a side's median with its interval, as benchstat prints it.
func cell(s *Side) string {
	if s == nil {
		return "-"
	}
	v := num(s.Summary.Center)
	if r := s.Summary.PctRangeString(); r != "∞" && len(s.Values) > 1 {
		v += " ± " + r
	}
	return v
}

func pct(f float64) string {
	if math.IsNaN(f) {
		return "?"
	}
	return fmt.Sprintf("%+.2f%%", 100*f)
}

func num(v float64) string {
	switch a := math.Abs(v); {
	case a == 0:
		return "0"
	case a >= 1000:
		return fmt.Sprintf("%.0f", v)
	case a >= 10:
		return fmt.Sprintf("%.1f", v)
	case a >= 0.1:
		return fmt.Sprintf("%.3f", v)
	}
	return fmt.Sprintf("%.3g", v)
}

// describe is a run's conditions in one line.
func describe(r *result.Result) string {
	n, _ := r.Params["rounds"].(float64)
	parts := []string{r.StartedAt.UTC().Format("2006-01-02 15:04 UTC"), messages.T("compare.describe", max(int(n), 1), r.Machine.CPUs, r.Machine.Stack)}
	if s, _ := r.Params["solution"].(bool); s {
		parts = append(parts, "SOLUTION=1")
	}
	if q, _ := r.Params["quick"].(bool); q {
		parts = append(parts, "QUICK=1")
	}
	if ms, _ := r.Params["added_latency_ms"].(float64); ms > 0 {
		parts = append(parts, fmt.Sprintf("LATENCY=%gms", ms))
	}
	return strings.Join(parts, ", ")
}

// differences are the conditions that make A and B measure different things.
func differences(a, b *result.Result) []string {
	var out []string
	for _, k := range []string{"vus", "duration_s", "iterations", "warmup_s", "tool", "quick", "solution", "added_latency_ms"} {
		if fmt.Sprint(a.Params[k]) != fmt.Sprint(b.Params[k]) {
			out = append(out, fmt.Sprintf("%s (%v → %v)", k, orNone(a.Params[k]), orNone(b.Params[k])))
		}
	}
	if a.Machine.CPUs != b.Machine.CPUs || a.Machine.CPUModel != b.Machine.CPUModel {
		out = append(out, messages.T("compare.machine", a.Machine.CPUs, a.Machine.CPUModel, b.Machine.CPUs, b.Machine.CPUModel))
	}
	if a.Machine.Stack != b.Machine.Stack || a.Machine.Mongo != b.Machine.Mongo {
		out = append(out, messages.T("compare.stack", a.Machine.Stack, b.Machine.Stack))
	}
	return out
}

func orNone(v any) any {
	if v == nil {
		return "unset"
	}
	return v
}

// printClaims sets each claim's verdict in A beside B's.
func printClaims(w io.Writer, a, b *result.Result) {
	var ids []string
	for _, r := range []*result.Result{a, b} {
		for _, c := range r.Claims {
			if !slices.Contains(ids, c.ID) {
				ids = append(ids, c.ID)
			}
		}
	}
	if len(ids) == 0 {
		return
	}
	find := func(r *result.Result, id string) (string, string) {
		for _, c := range r.Claims {
			if c.ID == id {
				lang := messages.Current()
				v := c.VerdictIn(lang)
				if c.Unstable {
					v = lang.T("verdict.unstable_word")
				}
				return v, c.LinesIn(lang).Measured
			}
		}
		return "-", ""
	}
	fmt.Fprint(w, messages.T("compare.claims"))
	for _, id := range ids {
		va, ma := find(a, id)
		vb, mb := find(b, id)
		fmt.Fprintf(w, "  %-7s A: %-15s B: %s\n", id, va, vb)
		if ma != "" {
			fmt.Fprint(w, messages.T("compare.measured", "A", ma))
		}
		if mb != "" {
			fmt.Fprint(w, messages.T("compare.measured", "B", mb))
		}
	}
}
