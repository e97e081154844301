package report

import (
	"fmt"
	"html"
	"strings"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/result"
)

// ServiceSections are the latest make probe and make audit of a service of
// the user's, drawn like a step: conditions, the runs (a chart when there
// are any), the tables (the audit's practice by practice) and the notes.
// Empty when there is neither.
func ServiceSections(rs ...*result.Result) string {
	l := messages.Current()
	var b strings.Builder
	for _, r := range rs {
		if r == nil {
			continue
		}
		fmt.Fprintf(&b, "<h2>%s</h2>\n<p class=\"meta\">%s</p>\n", html.EscapeString(r.Slug), html.EscapeString(conditionsIn(l, r)))
		if len(r.Runs) > 0 {
			fmt.Fprintf(&b, "<figure class=\"chart\">%s</figure>\n", RunsChart(r))
			b.WriteString(runsTable(r))
		}
		// The audit's evidence is prose: let it wrap.
		b.WriteString(strings.ReplaceAll(stepTables(r), `<table class="runs">`, `<table>`))
		for _, n := range r.Notes {
			fmt.Fprintf(&b, "<p class=\"note\">%s</p>\n", html.EscapeString(l.T("report.note", l.Restate(n))))
		}
	}
	return b.String()
}

// LoadLatest reads results/<kind>/latest.json (make probe: "probe", make
// audit: "audit"); (nil, nil) when there is none.
func LoadLatest(results, kind string) (*result.Result, error) {
	return load(results + "/" + kind + "/latest.json")
}
