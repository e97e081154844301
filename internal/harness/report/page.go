package report

import (
	"errors"
	"fmt"
	"html"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/result"
)

// Load reads step n's result: results/reference/step-N.json when ref is
// set, else the learner's latest run, results/step-N/latest.json. A step
// never benched is (nil, nil).
func Load(results string, n int, ref bool) (*result.Result, error) {
	path := filepath.Join(results, fmt.Sprintf("step-%d", n), "latest.json")
	if ref {
		path = filepath.Join(results, "reference", fmt.Sprintf("step-%d.json", n))
	}
	return load(path)
}

// LoadDrill reads step n's latest drill, results/drill/step-N/latest.json
// (results/reference/drill-step-N.json when ref is set); (nil, nil) when
// the step's drill has not been run.
func LoadDrill(results string, n int, ref bool) (*result.Result, error) {
	path := filepath.Join(results, "drill", fmt.Sprintf("step-%d", n), "latest.json")
	if ref {
		path = filepath.Join(results, "reference", fmt.Sprintf("drill-step-%d.json", n))
	}
	return load(path)
}

func load(path string) (*result.Result, error) {
	r, err := result.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return r, err
}

// ClaimsTable is the claims of some results as an HTML table, in the run's
// language: the article's words, ours, the verdict. withStep adds a column
// for the step. A claim read back from JSON has its Vietnamese lines only
// once its step filled them (scenario's Step.FillText); else it stays English.
func ClaimsTable(rs []*result.Result, withStep bool) string {
	l := messages.Current()
	var b strings.Builder
	b.WriteString(`<table class="claims">` + "\n<tr>")
	if withStep {
		fmt.Fprintf(&b, "<th>%s</th>", l.T("report.col.step"))
	}
	fmt.Fprintf(&b, "<th>%s</th><th>%s</th><th>%s</th><th>%s</th></tr>\n", l.T("report.col.claim"), l.T("report.col.verdict"), l.T("report.col.whose"), l.T("report.col.ours"))
	for _, r := range rs {
		for i := range r.Claims {
			c := &r.Claims[i]
			v, color := verdictIn(l, c)
			lines := c.LinesIn(l)
			b.WriteString("<tr>")
			if withStep {
				fmt.Fprintf(&b, `<td><a href="#step-%d">%d %s</a></td>`, r.Step, r.Step, html.EscapeString(r.Slug))
			}
			fmt.Fprintf(&b, `<td><b>%s</b></td><td style="color:%s;font-weight:bold;white-space:nowrap">%s</td><td><small>%s:</small> %s</td><td>%s<br><small>%s</small></td></tr>`+"\n",
				html.EscapeString(c.ID), color, v, html.EscapeString(c.Source.NameIn(l)), html.EscapeString(lines.Text), html.EscapeString(lines.Measured),
				html.EscapeString(l.T("report.tolerance", lines.Tolerance)))
		}
	}
	b.WriteString("</table>\n")
	return b.String()
}

// conditions is one line saying where and how a result was measured, in
// English: the slides' figures print it, and the English decks include them.
func conditions(r *result.Result) string { return conditionsIn(messages.English, r) }

// conditionsIn is conditions in language l, for the report's page.
func conditionsIn(l messages.Lang, r *result.Result) string {
	m := r.Machine
	pin := l.T("report.not_pinned")
	switch {
	case m.CPUPlan.Pinned && len(m.CPUPlan.Server) == 0: // a probe: the service's CPUs are not ours to know
		pin = l.T("report.load_pinned", m.CPUPlan.Driver)
	case m.CPUPlan.Pinned:
		pin = l.T("report.pinned", m.CPUPlan.Server, m.ServerGOMAXPROCS)
	}
	sol := ""
	if s, _ := r.Params["solution"].(bool); s {
		sol = l.T("report.solution")
	}
	return l.T("report.conditions",
		r.StartedAt.UTC().Format("2006-01-02 15:04 UTC"), m.CPUs, m.CPUModel, pin, m.Stack, m.Go, sol)
}

// runsTable lists every run's figures, including the step's own counters
// (named as stored: a counter's name is code), headed in the run's language.
func runsTable(r *result.Result) string {
	l := messages.Current()
	keys := map[result.Key]bool{}
	for _, x := range r.Runs {
		for k := range x.Extra {
			keys[k] = true
		}
	}
	extras := slices.Sorted(maps.Keys(keys))
	var b strings.Builder
	b.WriteString(`<div style="overflow-x:auto"><table class="runs"><tr>`)
	for _, h := range []string{l.T("report.col.variant"), l.T("report.col.tool"), "VUs", "req/s", "p50 ms", "p99 ms", l.T("report.col.errors"),
		l.T("report.col.public"), l.T("report.col.db"), l.T("report.col.redis"), l.T("report.col.cpu")} {
		fmt.Fprintf(&b, "<th>%s</th>", h)
	}
	for _, k := range extras {
		fmt.Fprintf(&b, "<th>%s</th>", html.EscapeString(strings.ReplaceAll(string(k), "_", " ")))
	}
	b.WriteString("</tr>\n")
	for _, x := range r.Runs {
		fmt.Fprintf(&b, "<tr><td>%s</td><td>%s</td><td>%d</td><td>%s</td><td>%s</td><td>%s</td><td>%d</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td>",
			html.EscapeString(string(x.Variant)), html.EscapeString(x.Tool), x.VUs, num(x.RPS), num(x.Latency.P50), num(x.Latency.P99), x.Errors,
			num(x.PerRequest.PublicBytes), num(x.PerRequest.DBQueries), num(x.PerRequest.RedisBytes), num(x.PerRequest.ServerCPUus))
		for _, k := range extras {
			if v, ok := x.Extra[k]; ok {
				fmt.Fprintf(&b, "<td>%s</td>", num(v))
			} else {
				b.WriteString("<td></td>")
			}
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</table></div>\n")
	return b.String()
}

// stepTables are a result's own tables, each stored cell said again in the
// run's language as the CLI's bench says it (messages.Restate: figures and
// variants' names unchanged).
func stepTables(r *result.Result) string {
	say := func(s string) string { return html.EscapeString(messages.Restate(s)) }
	var b strings.Builder
	for _, t := range r.Tables {
		fmt.Fprintf(&b, "<h4>%s</h4>\n<table class=\"runs\"><tr>", say(t.Title))
		for _, h := range t.Header {
			fmt.Fprintf(&b, "<th>%s</th>", say(h))
		}
		b.WriteString("</tr>\n")
		for _, row := range t.Rows {
			b.WriteString("<tr>")
			for _, c := range row {
				fmt.Fprintf(&b, "<td>%s</td>", say(c))
			}
			b.WriteString("</tr>\n")
		}
		b.WriteString("</table>\n")
		for _, n := range t.Notes {
			fmt.Fprintf(&b, "<p class=\"note\">%s</p>\n", say(n))
		}
	}
	return b.String()
}

const style = `body{font:15px/1.45 Helvetica,Arial,sans-serif;margin:2em auto;max-width:1060px;color:#222;padding:0 1em}
h1{font-size:26px}h2{border-top:2px solid #4a7bd0;padding-top:.6em;margin-top:2em}
table{border-collapse:collapse;margin:.6em 0;font-size:13px}td,th{border:1px solid #ccc;padding:3px 6px;vertical-align:top;text-align:left}
table.runs td{text-align:right;white-space:nowrap}table.runs td:first-child{text-align:left}
th{background:#f0f3fa}.meta,.note{color:#555;font-size:13px}svg{max-width:100%;height:auto;display:block;margin:.6em 0}
a{color:#2a55a0}`

// Page is the self-contained report: every claim first, then per step its
// charts, its runs' figures and its claims. steps lists the step numbers in
// order; rs holds their results (nil where a step has none yet).
func Page(title string, steps []int, slugs map[int]string, rs map[int]*result.Result, ref bool) string {
	return PageWithDrills(title, steps, slugs, rs, nil, ref)
}

// PageWithDrills is Page with, under a step, its latest failure drill
// (`make step-N drill`) over time, when drills holds one.
// Its words are the run's language (PEAKLOAD_LANG); the charts' own labels
// stay English, as the slide decks draw the same charts.
func PageWithDrills(title string, steps []int, slugs map[int]string, rs, drills map[int]*result.Result, ref bool) string {
	l := messages.Current()
	var b strings.Builder
	which := l.T("report.from_latest")
	if ref {
		which = l.T("report.from_reference")
	}
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"%s\"><head><meta charset=\"utf-8\"><title>%s</title>\n<style>%s</style></head><body>\n", l, html.EscapeString(title), style)
	fmt.Fprintf(&b, "<h1>%s</h1>\n<p class=\"meta\">%s</p>\n", html.EscapeString(title), l.T("report.from", which))
	var have []*result.Result
	for _, n := range steps {
		if rs[n] != nil {
			have = append(have, rs[n])
		}
	}
	fmt.Fprintf(&b, "<h2 id=\"claims\">%s</h2>\n", l.T("report.every_claim"))
	b.WriteString(ClaimsTable(have, true))
	for _, n := range steps {
		r := rs[n]
		fmt.Fprintf(&b, "<h2 id=\"step-%d\">%s</h2>\n", n, l.T("report.step", n, html.EscapeString(slugs[n])))
		b.WriteString(drillSection(drills[n]))
		if r == nil {
			fmt.Fprintf(&b, "<p>%s</p>\n", l.T("report.no_run", n))
			continue
		}
		fmt.Fprintf(&b, "<p class=\"meta\">%s</p>\n", html.EscapeString(conditionsIn(l, r)))
		fmt.Fprintf(&b, "<figure class=\"chart\">%s</figure>\n", RunsChart(r))
		if c := SeriesChart(r); c != "" {
			fmt.Fprintf(&b, "<figure class=\"chart\">%s<figcaption class=\"note\">%s</figcaption></figure>\n", c, l.T("report.series", everyIn(l, r)))
		}
		if c := RatiosChart(r); c != "" {
			fmt.Fprintf(&b, "<figure class=\"chart\">%s</figure>\n", c)
		}
		b.WriteString(runsTable(r))
		b.WriteString(stepTables(r))
		b.WriteString(ClaimsTable([]*result.Result{r}, false))
		for _, n := range r.Notes {
			fmt.Fprintf(&b, "<p class=\"note\">%s</p>\n", html.EscapeString(l.T("report.note", l.Restate(n))))
		}
	}
	b.WriteString("</body></html>\n")
	return b.String()
}

// SlideFiles are the figures a step's deck includes, by file name under
// slides/img/generated/: the slide chart (one message, large type; the
// report keeps the full runs and ratios charts), the run over time (when
// its runs kept a series) and the claims table as an HTML fragment.
func SlideFiles(r *result.Result) map[string]string {
	out := map[string]string{
		fmt.Sprintf("step-%d-claims.html", r.Step): slideClaims(r),
	}
	if c := SlideChart(r); c != "" {
		out[slideName(r.Step)] = c + "\n"
	}
	if c := SeriesChart(r); c != "" {
		out[fmt.Sprintf("step-%d-series.svg", r.Step)] = c + "\n"
	}
	return out
}

// drillSection is a step's failure drill as a chart over time, with what
// happened marked on it; "" without one.
func drillSection(d *result.Result) string {
	if d == nil {
		return ""
	}
	c := SeriesChart(d)
	if c == "" {
		return ""
	}
	l := messages.Current()
	var b strings.Builder
	fmt.Fprintf(&b, "<h4>%s</h4>\n<p class=\"meta\">%s</p>\n", l.T("report.drill", d.Step), html.EscapeString(conditionsIn(l, d)))
	fmt.Fprintf(&b, "<figure class=\"chart\">%s<figcaption class=\"note\">%s</figcaption></figure>\n", c, l.T("report.drill_caption", everyIn(l, d)))
	for _, n := range d.Notes {
		fmt.Fprintf(&b, "<p class=\"note\">%s</p>\n", html.EscapeString(l.Restate(n)))
	}
	return b.String()
}

// everyIn says, in language l, how long the series' intervals are ("one
// point per second").
func everyIn(l messages.Lang, r *result.Result) string {
	for _, x := range r.Runs {
		if x.Series != nil {
			if x.Series.EveryS == 1 {
				return l.T("report.every_second")
			}
			return l.T("report.every_ms", 1000*x.Series.EveryS)
		}
	}
	return ""
}

// slideClaims is the claims table sized for a slide, with the conditions
// of the run under it.
func slideClaims(r *result.Result) string {
	var b strings.Builder
	b.WriteString(`<style>table.claims{border-collapse:collapse;font-size:15px;line-height:1.25}table.claims td,table.claims th{border:1px solid #ccc;padding:3px 6px;vertical-align:top;text-align:left}table.claims small{color:#666}</style>` + "\n")
	// A slide has room for the verdict and what was measured, read from the
	// back of a room; each claim's words and tolerance are in the step's
	// README and the report, where a reader has the time for them.
	// The twins judged on the source's own stack (ORIGINAL=1) get their
	// verdicts only, in one row: with them a step's table outgrew its slide.
	b.WriteString(`<table class="claims">` + "\n<tr><th>claim</th><th>verdict</th><th>source</th><th>ours</th></tr>\n")
	var twins []string
	for i := range r.Claims {
		c := &r.Claims[i]
		v, color := verdict(c)
		if c.OnSourcesStack() {
			twins = append(twins, fmt.Sprintf(`<b>%s</b> <span style="color:%s">%s</span>`, html.EscapeString(c.ID), color, v))
			continue
		}
		fmt.Fprintf(&b, `<tr><td><b>%s</b></td><td style="color:%s;font-weight:bold;white-space:nowrap">%s</td><td>%s</td><td>%s</td></tr>`+"\n",
			html.EscapeString(c.ID), color, v, html.EscapeString(c.Source.Name()), html.EscapeString(c.Measured))
	}
	if len(twins) > 0 {
		fmt.Fprintf(&b, `<tr><td colspan="4">on the source's own stack, here: %s</td></tr>`+"\n", strings.Join(twins, " · "))
	}
	b.WriteString("</table>\n")
	fmt.Fprintf(&b, "<p style=\"font-size:12px;color:#666\">reference run: %s — each claim's words and tolerance: the step's README, make report</p>\n", html.EscapeString(conditions(r)))
	return b.String()
}

// Summary is every step's verdicts in one compact table, for the welcome
// deck (slides/img/generated/claims-all.html).
func Summary(rs []*result.Result) string {
	var b strings.Builder
	b.WriteString(`<table style="border-collapse:collapse;font-size:16px;line-height:1.3">` + "\n")
	for _, r := range rs {
		fmt.Fprintf(&b, `<tr><td style="padding:2px 10px 2px 0;white-space:nowrap">step %d — %s</td><td style="padding:2px 0">`, r.Step, html.EscapeString(r.Slug))
		for i := range r.Claims {
			v, color := verdict(&r.Claims[i])
			fmt.Fprintf(&b, `<span style="display:inline-block;margin:1px 6px 1px 0;padding:0 6px;border:1px solid %s;color:%s;border-radius:4px"><b>%s</b> %s</span>`,
				color, color, html.EscapeString(r.Claims[i].ID), v)
		}
		b.WriteString("</td></tr>\n")
	}
	b.WriteString("</table>\n")
	return b.String()
}
