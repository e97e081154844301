package handout

import (
	"bufio"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/peakload/workshop/internal/harness/report"
	"github.com/peakload/workshop/internal/harness/result"
	"github.com/peakload/workshop/internal/harness/scenario"
)

// cheatTargets are the Makefile targets a learner types during the day, in
// the order of a step; their one-line descriptions come from the Makefile's
// `## ` comments, so the sheet cannot drift from `make help`.
var cheatTargets = []string{"doctor", "up", "step-%", "hint", "check", "watch", "diff", "bench", "run", "drill", "profile", "reset", "report", "compare", "progress", "down"}

var helpLine = regexp.MustCompile(`^([a-zA-Z0-9_%-]+):.*## (.*)$`)

// makeHelp reads the Makefile's target descriptions.
func makeHelp(makefile string) (map[string]string, error) {
	f, err := os.Open(makefile)
	if err != nil {
		return nil, fmt.Errorf("reading the commands for the cheat sheet: %w", err)
	}
	defer f.Close()
	help := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m := helpLine.FindStringSubmatch(sc.Text()); m != nil {
			help[m[1]] = m[2]
		}
	}
	return help, sc.Err()
}

// referenceClaims are every step's claims as the reference runs judged
// them, with their sources filled in as `make report` does.
func referenceClaims(results string) ([]*result.Result, error) {
	var rs []*result.Result
	for _, s := range scenario.All() {
		r, err := report.Load(results, s.N, true)
		if err != nil {
			return nil, err
		}
		if r == nil {
			continue
		}
		s.FillSources(r)
		rs = append(rs, r)
	}
	return rs, nil
}

// cheatSheet is the learner's one page: the commands, Little's law, and
// every claim with its source and tolerance — all read from the Makefile and
// the reference runs, none typed here.
func cheatSheet(help map[string]string, rs []*result.Result) string {
	var b strings.Builder
	e := html.EscapeString
	b.WriteString(`<!doctype html><html><head><meta charset="utf-8"><title>peakload — cheat sheet</title><style>
@page { size: A4 landscape; margin: 8mm; }
body { font-family: Helvetica, Arial, sans-serif; font-size: 7.4pt; margin: 0; }
h1 { font-size: 13pt; margin: 0 0 3pt; } h2 { font-size: 9pt; margin: 5pt 0 2pt; }
.cols { display: flex; gap: 10pt; } .left { flex: 0 0 36%; font-size: 7pt; } .right { flex: 1; font-size: 6.6pt; }
table { border-collapse: collapse; width: 100%; } td, th { border-bottom: 0.5pt solid #ccc; padding: 1pt 3pt; vertical-align: top; text-align: left; }
code { font-family: Menlo, Consolas, monospace; font-size: 7pt; } .law { border: 1pt solid #4a7bd0; padding: 4pt; font-size: 8.5pt; }
</style></head><body><h1>peakload — cheat sheet</h1><div class="cols"><div class="left"><h2>Commands (make help has them all)</h2><table>`)
	for _, t := range cheatTargets {
		d, ok := help[t]
		if !ok {
			continue
		}
		name := "make " + t
		if t == "step-%" {
			name = "make step-N"
		} else if strings.HasPrefix(d, "(make step-N ") {
			name = "make step-N " + t
			d = strings.TrimSpace(d[strings.Index(d, ")")+1:])
		}
		fmt.Fprintf(&b, "<tr><td><code>%s</code></td><td>%s</td></tr>", e(name), e(d))
	}
	b.WriteString(`</table><p>Variables: <code>SOLUTION=1</code> the reference answer · <code>QUICK=1</code> a smoke run · <code>VUS=N</code> users · <code>A=… B=…</code> two results for <code>make compare</code></p>
<h2>Little's law</h2><div class="law"><b>L = λ × W</b>: requests in flight = throughput × mean latency.<br>
A closed loop keeps L fixed (the users), so <b>mean latency = users ÷ req/s</b>: a table whose rows break it is wrong somewhere.</div>
<h2>Reading a table</h2><p>Compare rows of one run, or ratios — never absolute req/s across machines. A counter per request (DB queries, Redis bytes, round trips) proves the mechanism; req/s alone proves nothing. A verdict is computed from the run against the tolerance on the right.</p>
</div><div class="right"><h2>The claims, their sources and tolerances (from results/reference)</h2><table><tr><th>step</th><th>claim</th><th>source</th><th>judged by</th></tr>`)
	for _, r := range rs {
		for _, c := range r.Claims {
			fmt.Fprintf(&b, "<tr><td>%d</td><td><b>%s</b></td><td>%s</td><td>%s</td></tr>", r.Step, e(c.ID), e(c.Source.Name()), e(c.Tolerance))
		}
	}
	b.WriteString("</table></div></div></body></html>\n")
	return b.String()
}

// writeCheatSheet writes the sheet's HTML under out and returns its path.
func writeCheatSheet(out, results string) (string, error) {
	help, err := makeHelp("Makefile")
	if err != nil {
		return "", err
	}
	rs, err := referenceClaims(results)
	if err != nil {
		return "", err
	}
	path, err := filepath.Abs(filepath.Join(out, "cheatsheet.html"))
	if err != nil {
		return "", err
	}
	return path, os.WriteFile(path, []byte(cheatSheet(help, rs)), 0o644)
}
