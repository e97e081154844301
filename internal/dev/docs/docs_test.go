package docs

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/dev/routesjs"
	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/result"
	"github.com/peakload/workshop/internal/harness/scenario"
)

// TestDocsAreCurrent fails when a generated region of a README or of docs/
// differs from what `make docs` writes from results/reference/: re-recording
// a reference run without regenerating the prose is caught here.
func TestDocsAreCurrent(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	refs, err := loadReferences(root)
	if err != nil {
		t.Fatal(err)
	}
	files, err := docFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	regions := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		regions += strings.Count(string(b), "<!-- reference:")
		out, err := refs.fill(string(b), f)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if out != string(b) {
			t.Errorf("%s: generated figures differ from results/reference/: run `make docs`", f)
		}
	}
	if regions == 0 {
		t.Error("no <!-- reference:… --> region found: the generator checks nothing")
	}
	stale, err := refs.stampSources()
	if err != nil {
		t.Fatal(err)
	}
	for path := range stale {
		t.Errorf("%s: its claims do not carry the sources their step declares now: run `make docs`", path)
	}
}

// TestFillReplacesOnlyRegions: text outside the markers is kept byte for
// byte, an unknown region is an error (a typo must not pass silently).
func TestFillReplacesOnlyRegions(t *testing.T) {
	refs, err := loadReferences(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	in := "before\n<!-- reference:step-1 -->\nstale 645\n<!-- /reference -->\nafter\n"
	out, err := refs.fill(in, filepath.Join("..", "..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out, "before\n<!-- reference:step-1 -->\n") || !strings.HasSuffix(out, "<!-- /reference -->\nafter\n") || strings.Contains(out, "stale") {
		t.Errorf("fill rewrote outside its region or kept the stale text:\n%s", out)
	}
	if !strings.Contains(out, "A1") {
		t.Errorf("step-1 region lacks its claim A1:\n%s", out)
	}
	if _, err := refs.fill("<!-- reference:step-99 -->\n<!-- /reference -->", filepath.Join("..", "..", "..", "README.md")); err == nil {
		t.Error("an unknown region was accepted")
	}
}

// TestNoReferenceFigureOutsideRegions: a figure of a reference run typed
// into prose goes stale at the next re-recording. Each step README, and
// the README and docs/ for every step, may quote a run's ratios (1.88×,
// ÷ 8.1) and rates (16 338 req/s) only inside a generated region.
func TestNoReferenceFigureOutsideRegions(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	refs, err := loadReferences(root)
	if err != nil {
		t.Fatal(err)
	}
	ratio := regexp.MustCompile(`\d+\.\d+×|÷ \d+\.\d+`)
	// A run's figure that happens to equal an article's (our async's 2673
	// req/s, article B's 2673 ops/s) may be quoted as the article's.
	articles := map[string]bool{}
	digits := regexp.MustCompile(`\d[\d, ]*\d`)
	for _, r := range refs.runs {
		for _, c := range r.Claims {
			for _, f := range digits.FindAllString(c.Article, -1) {
				articles[strings.NewReplacer(",", "", " ", "").Replace(f)] = true
			}
		}
	}
	figures := func(n int) []string {
		var out []string
		for _, c := range refs.runs[n].Claims {
			out = append(out, ratio.FindAllString(c.Measured, -1)...)
		}
		for _, r := range refs.runs[n].Runs {
			if v := int64(r.RPS + 0.5); v >= 1000 && !articles[fmt.Sprint(v)] {
				s := fmt.Sprint(v)
				out = append(out, s, s[:len(s)-3]+","+s[len(s)-3:], s[:len(s)-3]+" "+s[len(s)-3:])
			}
		}
		return out
	}
	check := func(file string, steps []int) {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		prose := regionRE.ReplaceAllString(string(b), "")
		for _, n := range steps {
			for _, f := range figures(n) {
				// Whole figures only: 81,500 (an article's) is not 1,500 (ours).
				if regexp.MustCompile(`(^|[^\d.,])` + regexp.QuoteMeta(f) + `($|[^\d])`).MatchString(prose) {
					t.Errorf("%s: %q, a figure of results/reference/step-%d.json, is typed outside a generated region: move it into one (make docs) or say it in words", file, f, n)
				}
			}
		}
	}
	all := []int{}
	for _, s := range refs.steps {
		all = append(all, s.N)
		m, _ := filepath.Glob(filepath.Join(root, "steps", fmt.Sprintf("%02d-*", s.N), "README.md"))
		for _, f := range m {
			check(f, []int{s.N})
		}
	}
	check(filepath.Join(root, "README.md"), all)
	docs, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	for _, f := range docs {
		if filepath.Base(f) != "articles.md" { // the articles' own figures, not ours
			check(f, all)
		}
	}
}

// The README's step table computes one cell per step from its reference
// run: a step declared in internal/harness/course whose bench has no Ours would
// print "–".
func TestEveryStepHasItsOursCell(t *testing.T) {
	for _, s := range course.All() {
		if b, err := scenario.Get(s.N); err != nil || b.Ours == nil {
			t.Errorf("step %d (%s) has no Ours in internal/harness/scenario/step%02d.go: the README's table would print – for its figure", s.N, s.Slug, s.N)
		}
	}
}

// TestTheSourcesStackCellSaysWhatIsRecorded: the table's column on the sources'
// stacks prints the reference run's original rows, says how to record
// them while it has none, and "–" for a step without an original; Go rows
// never leak into it.
func TestTheSourcesStackCellSaysWhatIsRecorded(t *testing.T) {
	nine, err := scenario.Get(9)
	if err != nil {
		t.Fatal(err)
	}
	res := &result.Result{Runs: []result.Run{{Variant: "echo-empty", RPS: 9000}}}
	if got, want := originalCell(nine, res, messages.English), "not recorded yet (`make step-9 bench ORIGINAL=1`)"; got != want {
		t.Errorf("no original row: %q, want %q", got, want)
	}
	res.Runs = append(res.Runs, result.Run{Variant: course.FrameworkRow(course.Express, "empty"), RPS: 4321},
		result.Run{Variant: course.FrameworkRow(course.Elysia, "empty"), RPS: 23456})
	if got, want := originalCell(nine, res, messages.English), "express-empty 4 321 req/s; elysia-empty 23 456 req/s"; got != want {
		t.Errorf("recorded: %q, want %q", got, want)
	}
	ten, err := scenario.Get(10)
	if err != nil {
		t.Fatal(err)
	}
	if len(ten.Originals()) == 0 && originalCell(ten, res, messages.English) != "–" {
		t.Errorf("step 10 declares no original, and its cell reads %q", originalCell(ten, res, messages.English))
	}
}

// TestRoutesJSIsGenerated: k6/lib/routes.js is what `make docs` writes
// from internal/given/routes, so a route is declared once, in Go, and a
// script requests and tags what the Go driver does.
func TestRoutesJSIsGenerated(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	want, err := routesjs.Generate(root)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(root, routesjs.Path))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from what `make docs` writes from %s: run `make docs` (never edit it by hand)", routesjs.Path, routesjs.Source)
	}
}
