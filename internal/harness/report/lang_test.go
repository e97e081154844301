package report

import (
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/result"
	"github.com/peakload/workshop/internal/harness/scenario"
)

// pageKeys are the report page's own words (texts.go)
// that a page in the other language must not print.
var pageKeys = []string{"report.every_claim", "report.col.whose", "report.col.verdict", "report.col.variant",
	"report.col.errors", "report.col.db", "report.col.cpu", "report.col.tool", "report.solution",
	"report.verdict.reproduced", "report.verdict.not_reproduced", "report.verdict.not_measured", "report.every_second"}

// svgs are the charts, which stay English in both pages (the decks draw them).
var svgs = regexp.MustCompile(`(?s)<svg.*?</svg>`)

// inLanguage renders the report of the reference runs, their claims' lines
// filled as `make report` fills them, in language l, charts left out.
func inLanguage(t *testing.T, l messages.Lang) (page string, rs map[int]*result.Result) {
	t.Helper()
	steps, slugs, rs := references(t)
	for _, s := range scenario.All() {
		if r := rs[s.N]; r != nil {
			s.FillSources(r)
			s.FillText(r)
		}
	}
	defer messages.Use(l)()
	return svgs.ReplaceAllString(Page(messages.T("report.title"), steps, slugs, rs, true), ""), rs
}

// TestPageSpeaksTheRunsLanguage: PEAKLOAD_LANG=vi renders the report's
// headings, columns, verdicts and claims in Vietnamese (issue 34 §3), and
// each language's page prints none of the other's words of its own.
func TestPageSpeaksTheRunsLanguage(t *testing.T) {
	for _, c := range []struct{ l, other messages.Lang }{{messages.English, messages.Vietnamese}, {messages.Vietnamese, messages.English}} {
		page, rs := inLanguage(t, c.l)
		if want := `<html lang="` + string(c.l) + `">`; !strings.Contains(page, want) {
			t.Errorf("the %s page does not open with %s", c.l, want)
		}
		for _, k := range pageKeys {
			if !strings.Contains(page, c.l.T(k)) {
				t.Errorf("the %s page lacks its %s, %q", c.l, k, c.l.T(k))
			}
			if w := c.other.T(k); w != c.l.T(k) && strings.Contains(page, ">"+w+"<") {
				t.Errorf("the %s page prints the %s %s, %q", c.l, c.other, k, w)
			}
		}
		for _, r := range rs {
			for _, claim := range r.Claims {
				if text := html.EscapeString(claim.LinesIn(c.l).Text); !strings.Contains(page, text) {
					t.Errorf("the %s page lacks claim %s's text %q", c.l, claim.ID, text)
				}
			}
		}
	}
}

// TestSlideFiguresStayEnglish: the figures the decks include are drawn by
// this package too; the English decks include them, so they are the same
// whatever language `make report REF=1` ran in.
func TestSlideFiguresStayEnglish(t *testing.T) {
	steps, _, rs := references(t)
	draw := func(l messages.Lang) map[string]string {
		defer messages.Use(l)()
		out := map[string]string{}
		var all []*result.Result
		for _, n := range steps {
			r := rs[n]
			all = append(all, r)
			for name, body := range SlideFiles(r) {
				out[name] = body
			}
		}
		out["summary"] = Summary(all)
		return out
	}
	en, vi := draw(messages.English), draw(messages.Vietnamese)
	for name, body := range en {
		if vi[name] != body {
			t.Errorf("%s differs under PEAKLOAD_LANG=vi: the English decks would show Vietnamese", name)
		}
	}
}
