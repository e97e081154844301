// Package docs is `make docs`: it writes the reference runs' figures into the
// marked regions of the READMEs and the facilitator guide:
//
//	<!-- reference:step-2 -->
//	…generated from results/reference/step-2.json…
//	<!-- /reference -->
//
// Prose must not drift from data: a figure typed by hand goes stale the day
// a reference run is re-recorded, a generated one cannot. TestDocsAreCurrent
// fails `make test` when a region differs from what this would write.
package docs

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/peakload/workshop/internal/dev/routesjs"
	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/result"
	"github.com/peakload/workshop/internal/harness/scenario"
)

// docFiles are the files whose marked regions are generated: the English
// ones and their Vietnamese twins (README.vi.md, docs/vi/), whose regions
// are filled from the same runs, each in its file's language (langOf; issue
// 34 §2; TestGeneratedRegionsHoldTheSameData).
func docFiles(root string) ([]string, error) {
	files := []string{filepath.Join(root, "README.md")}
	if _, err := os.Stat(filepath.Join(root, "README.vi.md")); err == nil {
		files = append(files, filepath.Join(root, "README.vi.md"))
	}
	for _, glob := range []string{"steps/*/README.md", "steps/*/README.vi.md", "docs/*.md", "docs/vi/*.md"} {
		m, err := filepath.Glob(filepath.Join(root, glob))
		if err != nil {
			return nil, err
		}
		files = append(files, m...)
	}
	return files, nil
}

func Run(args []string) error {
	fs := flag.NewFlagSet("docs", flag.ContinueOnError)
	check := fs.Bool("check", false, "only report the regions that are out of date")
	if err := fs.Parse(args); err != nil {
		return err
	}
	refs, err := loadReferences(".")
	if err != nil {
		return err
	}
	for _, w := range refs.rejudged() {
		fmt.Fprintln(os.Stderr, "warning:", w)
	}
	files, err := docFiles(".")
	if err != nil {
		return err
	}
	var stale []string
	for _, f := range files {
		old, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		out, err := refs.fill(string(old), f)
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		if out == string(old) {
			continue
		}
		stale = append(stale, f)
		if !*check {
			if err := os.WriteFile(f, []byte(out), 0o644); err != nil {
				return err
			}
			fmt.Println("wrote", f)
		}
	}
	sourced, err := refs.stampSources()
	if err != nil {
		return err
	}
	for path, b := range sourced {
		stale = append(stale, path)
		if !*check {
			if err := os.WriteFile(path, b, 0o644); err != nil {
				return err
			}
			fmt.Println("wrote", path)
		}
	}
	js, err := routesjs.Generate(".")
	if err != nil {
		return err
	}
	if old, _ := os.ReadFile(routesjs.Path); !bytes.Equal(old, js) {
		stale = append(stale, routesjs.Path)
		if !*check {
			if err := os.WriteFile(routesjs.Path, js, 0o644); err != nil {
				return err
			}
			fmt.Println("wrote", routesjs.Path)
		}
	}
	if *check && len(stale) > 0 {
		return fmt.Errorf("generated figures out of date in %s: run `make docs`", strings.Join(stale, ", "))
	}
	return nil
}

// references are the stored reference runs, step by step.
type references struct {
	root   string
	steps  []scenario.Step
	runs   map[int]*result.Result
	params params.Params
	// unrecorded are the steps whose entry says they have no reference run
	// yet (course.Step.Unrecorded): an empty result stands in, and their
	// row says so rather than failing every generator.
	unrecorded map[int]bool
}

func loadReferences(root string) (*references, error) {
	r := &references{root: root, steps: scenario.All(), runs: map[int]*result.Result{}, params: params.Load(), unrecorded: map[int]bool{}}
	for _, s := range r.steps {
		path := filepath.Join(root, "results", "reference", fmt.Sprintf("step-%d.json", s.N))
		if s.Unrecorded {
			r.runs[s.N], r.unrecorded[s.N] = &result.Result{Step: s.N, Slug: s.Slug}, true
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("reference run of step %d: %w", s.N, err)
		}
		var res result.Result
		if err := json.Unmarshal(b, &res); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		r.runs[s.N] = &res
	}
	return r, nil
}

// stampSources gives every claim of the reference runs the source its step
// declares now, so a results file is the record of whose figure each claim
// was judged against (issue 34: the report filled them at read time only).
// It returns the files whose contents that changes, with their new bytes;
// the rest of each file round-trips unchanged (json.MarshalIndent, as the
// bench writes it).
func (r *references) stampSources() (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, s := range r.steps {
		if r.unrecorded[s.N] {
			continue
		}
		path := filepath.Join(r.root, "results", "reference", fmt.Sprintf("step-%d.json", s.N))
		old, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		res := r.runs[s.N]
		for _, d := range r.current(s.N) {
			for i := range res.Claims {
				if res.Claims[i].ID == d.ID {
					res.Claims[i].Source = d.Source
				}
			}
		}
		b, err := json.MarshalIndent(res, "", "  ")
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if b = append(b, '\n'); !bytes.Equal(b, old) {
			out[path] = b
		}
	}
	return out, nil
}

// current judges a stored run with today's claim code: its article text is
// the one to print (a misquote fixed in the code is fixed in the docs at
// once), and a verdict that changed says the reference must be re-recorded.
func (r *references) current(n int) []result.Claim {
	for _, s := range r.steps {
		if s.N == n && s.Claims != nil {
			res := *r.runs[n]
			res.Notes = nil // claims may append notes: work on a copy
			return s.Claims(&res, scenario.Env{Params: r.params})
		}
	}
	return nil
}

// rejudged lists the claims whose stored verdict differs from what the
// current code computes from the same runs.
func (r *references) rejudged() []string {
	var out []string
	for _, s := range r.steps {
		now := r.current(s.N)
		for _, c := range r.runs[s.N].Claims {
			for _, x := range now {
				if x.ID == c.ID && verdict(x.Reproduced) != verdict(c.Reproduced) {
					out = append(out, fmt.Sprintf("step %d %s: stored %s, the current code judges the same runs %s — re-record with `make step-%d bench SOLUTION=1`",
						s.N, c.ID, verdict(c.Reproduced), verdict(x.Reproduced), s.N))
				}
				if x.ID == c.ID && x.Tolerance != c.Tolerance {
					out = append(out, fmt.Sprintf("step %d %s: judged under the tolerance %q, the code now states %q — re-record with `make step-%d bench SOLUTION=1`",
						s.N, c.ID, c.Tolerance, x.Tolerance, s.N))
				}
			}
		}
	}
	return out
}

// langOf is the language a file's regions are written in: a Vietnamese
// twin (README.vi.md, steps/*/README.vi.md, docs/vi/) reads as the
// Vietnamese CLI prints, the rest as the English.
func langOf(path string) messages.Lang {
	p := filepath.ToSlash(path)
	if strings.HasSuffix(p, ".vi.md") || strings.HasPrefix(p, "docs/vi/") || strings.Contains(p, "/docs/vi/") {
		return messages.Vietnamese
	}
	return messages.English
}

var regionRE = regexp.MustCompile(`(?s)(<!-- reference:([a-z0-9-]+) -->\n)(.*?)(<!-- /reference -->)`)

// fill rewrites every marked region of file's text, in the file's language
// (langOf) and with its links relative to the file's directory.
func (r *references) fill(text, file string) (string, error) {
	l, dir := langOf(file), filepath.Dir(file)
	if rel, err := filepath.Rel(r.root, dir); err == nil {
		dir = rel
	}
	var err error
	out := regionRE.ReplaceAllStringFunc(text, func(m string) string {
		sub := regionRE.FindStringSubmatch(m)
		body, e := r.region(sub[2], l, dir)
		if e != nil {
			err = e
			return m
		}
		return sub[1] + body + sub[4]
	})
	if strings.Count(out, "<!-- reference:") != strings.Count(out, "<!-- /reference -->") {
		return "", fmt.Errorf("unbalanced <!-- reference:… --> markers")
	}
	return out, err
}

// region is the body of the region called name, for a file in dir, in
// language l: every region of a Vietnamese file reads Vietnamese
// (TestEveryVietnameseRegionIsVietnamese), its figures the English file's.
func (r *references) region(name string, l messages.Lang, dir string) (string, error) {
	switch {
	case name == "steps":
		return r.stepTable(l, dir), nil
	case name == "claims":
		return r.claimTable(l), nil
	case name == "sources":
		return r.sourceTable(l), nil
	case name == "mistakes":
		return r.mistakes(l)
	case name == "timings":
		return r.timingsTable(l) // docs/facilitator.md: plan.go
	case name == "agenda":
		return r.agendaTable(l, dir)
	case name == "b-frameworks":
		return r.bFrameworks(l), nil // steps/00-ceilings: frameworks.go
	case strings.HasPrefix(name, "scaling-"):
		return r.scaling(name, l) // docs/scaling.md: scaling.go
	case strings.HasPrefix(name, "step-"):
		var n int
		if _, err := fmt.Sscanf(name, "step-%d", &n); err != nil || r.runs[n] == nil {
			return "", fmt.Errorf("unknown region %q", name)
		}
		return r.stepBlock(n, l), nil
	}
	return "", fmt.Errorf("unknown region %q (want steps, claims, sources, mistakes, timings, agenda, b-frameworks, scaling-… or step-N)", name)
}

func verdict(v *bool) string { return verdictIn(messages.English, v) }

// verdictIn is a stored verdict as the CLI of language l words it.
func verdictIn(l messages.Lang, v *bool) string {
	switch {
	case v == nil:
		return l.T("verdict.not_measured")
	case *v:
		return l.T("verdict.reproduced")
	}
	return l.T("verdict.not_reproduced")
}

func mark(v *bool) string {
	switch {
	case v == nil:
		return "–"
	case *v:
		return "✓"
	}
	return "✗"
}

// find is r's run of variant v, nil when it has none.
func find(r *result.Result, v course.Variant) *result.Run { return r.Find(v) }

// Verdicts is a step's claims in one cell: "✓ A3 ✗ A3-wire".
func Verdicts(cs []result.Claim) string {
	var parts []string
	for _, c := range cs {
		parts = append(parts, mark(c.Reproduced)+" "+c.ID)
	}
	return strings.Join(parts, ", ")
}

// stepTable is a row a step, for a file in dir: its link goes to the
// lesson in l (README.vi.md for a Vietnamese file), relative to dir.
func (r *references) stepTable(l messages.Lang, dir string) string {
	var b bytes.Buffer
	b.WriteString(l.T("docs.steps_head") + "|---|---|---|---|---|---|---|---|\n")
	for _, s := range r.steps {
		row, res, ours := s.Row.In(l), r.runs[s.N], "–"
		if r.unrecorded[s.N] {
			ours = l.T("docs.unrecorded", s.N)
		} else if s.Ours != nil {
			ours = s.Ours(res, scenario.Env{Params: r.params}, l)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", lessonLink(s, l, dir), row.Adds, row.Article, row.Theirs, ours, originalCell(s, res, l), Verdicts(res.Claims), row.Proof)
	}
	b.WriteString(l.T("docs.steps_legend"))
	return b.String()
}

// lessonLink is step s's lesson in language l, as a link from dir.
func lessonLink(s scenario.Step, l messages.Lang, dir string) string {
	lesson := "README.md"
	if l == messages.Vietnamese {
		lesson = "README.vi.md"
	}
	to, err := filepath.Rel(dir, filepath.Join(s.Dir(), lesson))
	if err != nil {
		to = filepath.Join(s.Dir(), lesson)
	}
	return fmt.Sprintf("[%d %s](%s)", s.N, s.Slug, filepath.ToSlash(to))
}

// originalCell is a step's figure on the sources' own stacks (ORIGINAL=1):
// the req/s of each original row of its reference run, "–" for a step
// without an original, and how to get the figures while the reference
// run has none.
func originalCell(s scenario.Step, res *result.Result, l messages.Lang) string {
	if len(s.Originals()) == 0 {
		return "–"
	}
	var parts []string
	for _, x := range res.Runs {
		if s.IsOriginalRow(x.Variant) {
			parts = append(parts, string(x.Variant)+" "+scenario.Rate(x.RPS)+" req/s")
		}
	}
	if len(parts) == 0 {
		return l.T("docs.original_unrecorded", s.N)
	}
	return strings.Join(parts, "; ")
}

// claimTable is every claim of the reference runs, a row each, in language l.
func (r *references) claimTable(l messages.Lang) string {
	var b bytes.Buffer
	b.WriteString(l.T("docs.claims_head") + "|---|---|---|---|---|---|---|\n")
	for _, s := range r.steps {
		now := r.current(s.N)
		for _, c := range r.runs[s.N].Claims {
			text, measured, tolerance := claimLinesIn(c, now, l)
			fmt.Fprintf(&b, "| %d | %s | %s | %s | %s | %s | %s |\n", s.N, c.ID, sourceOf(c, now).NameIn(l), cell(text), cell(measured), cell(tolerance), verdictIn(l, c.Reproduced))
		}
	}
	return b.String()
}

// articleText prefers the current code's wording of the article's claim.
func articleText(c result.Claim, now []result.Claim) string {
	for _, x := range now {
		if x.ID == c.ID {
			return x.Article
		}
	}
	return c.Article
}

// sourceOf prefers the current code's source of the claim: a reference
// recorded before sources existed has none.
func sourceOf(c result.Claim, now []result.Claim) result.Source {
	for _, x := range now {
		if x.ID == c.ID {
			return x.Source
		}
	}
	return c.Source
}

// sourceTable lists every claim the benches judge by its source: whose
// figure it is and the sentence or file it rests on, in language l.
func (r *references) sourceTable(l messages.Lang) string {
	var b bytes.Buffer
	kinds := []struct {
		kind result.SourceKind
		head string
	}{
		{result.FromArticle, l.T("docs.sources.article")},
		{result.FromGuide, l.T("docs.sources.guide")},
		{result.FromRepo, l.T("docs.sources.repo", result.RepoCommit)},
		{result.FromOurs, l.T("docs.sources.ours")},
	}
	for _, k := range kinds {
		var rows []string
		for _, s := range r.steps {
			for _, c := range r.current(s.N) {
				if c.Source.Kind == k.kind {
					rows = append(rows, fmt.Sprintf("| %d | %s | %s | %s |\n", s.N, c.ID, c.Source.NameIn(l), cell(restsOn(c.Source, l))))
				}
			}
		}
		if len(rows) == 0 {
			continue
		}
		fmt.Fprintf(&b, "%s:\n\n%s%s\n", k.head, l.T("docs.sources.cols"), strings.Join(rows, ""))
	}
	b.WriteString(l.T("docs.sources.foot"))
	return b.String()
}

// restsOn is what a claim's source rests on, in l: the original's sentence
// quoted, the file or README row, and the figures that are ours.
func restsOn(src result.Source, l messages.Lang) string {
	rest := src.Quote
	if rest != "" {
		rest = "«" + rest + "»"
	}
	if src.Ref != "" && src.Kind != result.FromGuide {
		rest = strings.TrimSpace(rest + " " + sourceRef(l, src.Ref))
	}
	if len(src.Ours) > 0 {
		rest += l.T("docs.sources.ours_figures", strings.Join(src.Ours, ", "))
	}
	return rest
}

func cell(s string) string { return strings.ReplaceAll(s, "|", "\\|") }

// column is one per-request figure of the run table; shown when any run has
// it. head is its catalogue key: the header in the file's language.
type column struct {
	head, format string
	get          func(x result.Run) float64
}

var runColumns = []column{
	{"table.col.rps", "%.0f", func(x result.Run) float64 { return x.RPS }},
	{"docs.col.p50", "%.1f", func(x result.Run) float64 { return x.Latency.P50 }},
	{"docs.col.p99", "%.1f", func(x result.Run) float64 { return x.Latency.P99 }},
	{"docs.col.bytes", "%.0f", func(x result.Run) float64 { return x.PerRequest.PublicBytes }},
	{"table.col.db_q", "%.3f", func(x result.Run) float64 { return x.PerRequest.DBQueries }},
	{"docs.col.redis", "%.0f", func(x result.Run) float64 { return x.PerRequest.RedisBytes }},
	{"docs.col.cpu", "%.0f", func(x result.Run) float64 { return x.PerRequest.ServerCPUus }},
	{"docs.col.busy", "%.0f %%", func(x result.Run) float64 { return x.RPS * x.PerRequest.ServerCPUus / 1e4 }},
	{"table.writes.persisted", "%.0f", func(x result.Run) float64 { return x.Extra[result.PersistedPerS] }},
	{"table.writes.additional", "%.2f", func(x result.Run) float64 { return x.Extra[result.AdditionalS] }},
	{"docs.col.db_writes", "%.4f", func(x result.Run) float64 { return x.Extra[result.DBWritesPerReq] }},
	{"docs.col.round_trips", "%.4f", func(x result.Run) float64 { return x.Extra[result.DBRoundTripsPerReq] }},
}

// stepBlock is step n's reference run in language l: how it was recorded,
// its table, the step's own tables and its claims. The figures are the same
// in both languages (TestGeneratedRegionsHoldTheSameData); the words are the
// CLI's in that language (TestVietnameseRegionsSpeakVietnamese).
func (r *references) stepBlock(n int, l messages.Lang) string {
	res := r.runs[n]
	var b bytes.Buffer
	m := res.Machine
	sol := "" // steps 0 and 1 have no exercise: nothing to say
	if s, _ := res.Params["solution"].(bool); s {
		sol = ", SOLUTION=1"
	}
	b.WriteString(l.T("docs.provenance", n, res.StartedAt.Format("2006-01-02"), m.CPUs, m.CPUModel, m.Stack,
		strings.Trim(fmt.Sprint(m.CPUPlan.Server), "[]"), m.ServerGOMAXPROCS, res.Params["vus"], res.Params["duration_s"], sol))
	runTable(&b, res, l)
	for _, t := range res.Tables {
		fmt.Fprintf(&b, "\n%s:\n\n| %s |\n|%s\n", l.Restate(t.Title), strings.Join(restated(l, t.Header), " | "), strings.Repeat("---|", len(t.Header)))
		for _, row := range t.Rows {
			fmt.Fprintf(&b, "| %s |\n", strings.Join(restated(l, row), " | "))
		}
	}
	b.WriteString("\n")
	now := r.current(n)
	for _, c := range res.Claims {
		b.WriteString(claimLine(c, now, l))
		b.WriteString("\n")
	}
	return b.String()
}

// restated is each cell of a stored English row said again in l, as the
// CLI's result.Table.Print says it: figures and variants' names unchanged.
func restated(l messages.Lang, cells []string) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = l.Restate(c)
	}
	return out
}

// runTable is the run's rows, one a variant, with the columns any row has.
func runTable(b *bytes.Buffer, res *result.Result, l messages.Lang) {
	var cols []column
	for _, c := range runColumns {
		if slices.ContainsFunc(res.Runs, func(x result.Run) bool { return c.get(x) != 0 }) {
			cols = append(cols, c)
		}
	}
	fmt.Fprintf(b, "| %s | %s |", l.T("table.col.variant"), l.T("table.col.tool"))
	sep := "|---|---|"
	for _, c := range cols {
		b.WriteString(" " + l.T(c.head) + " |")
		sep += "---:|"
	}
	b.WriteString("\n" + sep + "\n")
	for _, x := range res.Runs {
		fmt.Fprintf(b, "| %s | %s |", x.Variant, x.Tool)
		for _, c := range cols {
			if v := c.get(x); v != 0 {
				fmt.Fprintf(b, " "+c.format+" |", v)
			} else {
				b.WriteString(" – |") // not counted for this row (e.g. raw inserts have no server)
			}
		}
		b.WriteString("\n")
	}
}

// claimLinesIn is a stored claim's text, measured and tolerance lines in
// language l. The run's JSON keeps English only, so the Vietnamese lines
// come from the current code's judgement of the same runs (now): its
// measured and tolerance lines are used only when their English is the
// stored one, else the stored English stands (and
// TestVietnameseRegionsSpeakVietnamese says the reference needs re-recording).
func claimLinesIn(c result.Claim, now []result.Claim, l messages.Lang) (text, measured, tolerance string) {
	text, measured, tolerance = articleText(c, now), c.Measured, c.Tolerance
	cur := currentClaim(c, now)
	if cur == nil || l == messages.English {
		return text, measured, tolerance
	}
	lines := cur.LinesIn(l)
	if cur.Measured == c.Measured {
		measured = lines.Measured
	}
	if cur.Tolerance == c.Tolerance {
		tolerance = lines.Tolerance
	}
	return lines.Text, measured, tolerance
}

// currentClaim is the current code's claim of c's id, nil when it has none.
func currentClaim(c result.Claim, now []result.Claim) *result.Claim {
	for i := range now {
		if now[i].ID == c.ID {
			return &now[i]
		}
	}
	return nil
}

// claimLine is a stored claim in language l, a bullet of its step's block.
func claimLine(c result.Claim, now []result.Claim, l messages.Lang) string {
	text, measured, tolerance := claimLinesIn(c, now, l)
	cur := currentClaim(c, now)
	trim := func(s string) string { return strings.TrimSuffix(s, ".") }
	out := l.T("docs.claim", c.ID, verdictIn(l, c.Reproduced), sourceOf(c, now).NameIn(l), trim(text), trim(measured), trim(tolerance))
	if cur != nil && (verdict(cur.Reproduced) != verdict(c.Reproduced) || cur.Tolerance != c.Tolerance) {
		out += l.T("docs.rerecord", trim(cur.LinesIn(l).Tolerance), verdictIn(l, cur.Reproduced))
	}
	return out
}

// mistakes lists the wrong answers each step's check is proven against
// (steps/NN-slug/testdata/mutants/<name>.go, whose first line says what is
// wrong, and whose second, "// vi: …", says it in Vietnamese) and the right
// answers written another way (testdata/valid/), in language l: the
// facilitator's list of what learners write can then never drift from the
// tests that prove the checks.
func (r *references) mistakes(l messages.Lang) (string, error) {
	var b bytes.Buffer
	for _, kind := range []struct{ dir, head string }{{"mutants", "docs.mistakes.wrong"}, {"valid", "docs.mistakes.right"}} {
		files, err := filepath.Glob(filepath.Join(r.root, "steps", "*", "testdata", kind.dir, "*.go"))
		if err != nil {
			return "", err
		}
		b.WriteString(l.T(kind.head, kind.dir))
		if len(files) == 0 {
			b.WriteString(l.T("docs.mistakes.none"))
		}
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				return "", err
			}
			name := strings.TrimSuffix(filepath.Base(f), ".go")
			step := filepath.Base(filepath.Dir(filepath.Dir(filepath.Dir(f))))
			fmt.Fprintf(&b, "- `%s` `%s`: %s\n", step, name, whatIsWrong(string(src), name, l))
		}
		b.WriteString("\n")
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// whatIsWrong is what a mutant's (or valid answer's) header comments say
// of it in l: the first line, "// name: what", in English; the second,
// "// vi: …", in Vietnamese (English when it has none, which
// TestEveryVietnameseRegionIsVietnamese then reports).
func whatIsWrong(src, name string, l messages.Lang) string {
	first, rest, _ := strings.Cut(src, "\n")
	if second, _, _ := strings.Cut(rest, "\n"); l == messages.Vietnamese && strings.HasPrefix(second, "// vi:") {
		return strings.TrimSpace(strings.TrimPrefix(second, "// vi:"))
	}
	what := strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(first), "//"), " "+name+":"))
	return strings.TrimSpace(strings.TrimPrefix(what, name+":"))
}
