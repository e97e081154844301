// Package slides holds the workshop's Go present decks; its tests keep them
// honest: every deck parses, every file it pulls in exists and selects
// code, every slide has presenter notes, and every figure shown is drawn
// from results/reference by internal/harness/report, never typed.
package slides

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/present"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/report"
	"github.com/peakload/workshop/internal/harness/result"
	"github.com/peakload/workshop/internal/harness/scenario"
)

// edition is one language's decks and the words their tests look for:
// the Vietnamese decks (slides/vi/, issue 24) are the English ones
// translated, so the same structural tests run over both.
type edition struct {
	dir      string   // the decks' directory, relative to slides/
	exercise string   // the title of the slide that shows the TODO begins so
	answer   []string // the title of the slide that shows the answer begins so
	demo     string   // the live demo's slide title
	behind   string   // what a live demo's notes say when its bench runs behind the next slides
}

var editions = []edition{
	{".", "The exercise", []string{"The answer", "The reference answer"}, "Live demo", "runs behind the next slides"},
	{"vi", "Bài tập", []string{"Lời giải"}, "Demo trực tiếp", "chạy ngầm trong lúc chiếu các slide sau"},
}

// editionOf is the edition a deck (a path relative to slides/) belongs to.
func editionOf(deck string) edition {
	for _, e := range editions[1:] {
		if filepath.Dir(deck) == e.dir {
			return e
		}
	}
	return editions[0]
}

// decks are every edition's decks, as paths relative to slides/. A
// Vietnamese deck not written yet is simply absent here;
// cmd/workshop's TestVietnameseParity says which ones are pending.
func decks(t *testing.T) []string {
	t.Helper()
	var ds []string
	for _, e := range editions {
		m, err := filepath.Glob(filepath.Join(e.dir, "[0-9][0-9]-*.slide"))
		if err != nil {
			t.Fatal(err)
		}
		ds = append(ds, m...)
	}
	if len(ds) == 0 {
		t.Fatal("no decks")
	}
	return ds
}

// stepOf is the step a deck is about (deck NN-slug is steps/NN-slug), and
// false for the welcome deck.
func stepOf(deck string) (int, bool) {
	var n int
	base := filepath.Base(deck)
	if _, err := fmt.Sscanf(base, "%02d-", &n); err != nil || base == "00-welcome.slide" {
		return 0, false
	}
	return n, true
}

func parse(t *testing.T, name string) *present.Doc {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ctx := &present.Context{ReadFile: os.ReadFile}
	doc, err := ctx.Parse(f, name, 0)
	if err != nil {
		t.Fatalf("%s does not parse: %v", name, err)
	}
	return doc
}

// walk visits every element of the sections, nested ones included.
func walk(ss []present.Section, f func(s present.Section, e present.Elem)) {
	for _, s := range ss {
		for _, e := range s.Elem {
			if sub, ok := e.(present.Section); ok {
				walk([]present.Section{sub}, f)
				continue
			}
			f(s, e)
		}
	}
}

// TestDecks: each deck parses (present resolves every .code and .html
// address while parsing, so a target that moved or a regexp that no longer
// matches fails here), each .code selects some code, each .image exists,
// and every slide carries presenter notes.
func TestDecks(t *testing.T) {
	for _, name := range decks(t) {
		t.Run(name, func(t *testing.T) {
			doc := parse(t, name)
			if len(doc.Sections) < 5 {
				t.Errorf("only %d slides", len(doc.Sections))
			}
			if len(doc.TitleNotes) == 0 {
				t.Errorf("the title slide has no presenter notes (`: ` lines before the first slide)")
			}
			for _, s := range doc.Sections {
				if len(s.Notes) == 0 {
					t.Errorf("slide %q has no presenter notes (`: ` lines)", s.Title)
				}
			}
			walk(doc.Sections, func(s present.Section, e present.Elem) {
				switch e := e.(type) {
				case present.Code:
					if len(bytes.TrimSpace(e.Raw)) == 0 {
						t.Errorf("slide %q: %s selects no code", s.Title, e.Cmd)
					}
				case present.Image:
					if strings.Contains(e.URL, "://") {
						t.Errorf("slide %q: %s is not a file of the repo", s.Title, e.URL)
					} else if _, err := os.Stat(filepath.Join(filepath.Dir(name), e.URL)); err != nil { // the browser resolves it against the deck's URL
						t.Errorf("slide %q: .image %s: %v", s.Title, e.URL, err)
					}
				}
			})
		})
	}
}

// TestLanguageIndex: index.article, the page `make slides` opens, links
// every edition's directory, and every link it holds leads to decks.
func TestLanguageIndex(t *testing.T) {
	src, err := os.ReadFile("index.article")
	if err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open("index.article")
	defer f.Close()
	if _, err := (&present.Context{ReadFile: os.ReadFile}).Parse(f, "index.article", 0); err != nil {
		t.Fatalf("index.article does not parse: %v", err)
	}
	var links []string
	for _, m := range regexp.MustCompile(`\[\[([^\]]+)\]`).FindAllStringSubmatch(string(src), -1) {
		links = append(links, m[1])
	}
	for _, e := range editions {
		want := "/"
		if e.dir != "." {
			want = "/" + e.dir + "/"
		}
		if !slices.Contains(links, want) {
			t.Errorf("no link to %s (the decks of slides/%s)", want, e.dir)
		}
	}
	for _, l := range links {
		if ds, _ := filepath.Glob(filepath.Join("."+l, "[0-9][0-9]-*.slide")); len(ds) == 0 {
			t.Errorf("link %s: no decks there (present serves slides/ at its root)", l)
		}
	}
}

// TestStepDecksShowTheReferenceRun: deck NN-slug (named as steps/NN-slug) shows step NN's generated
// charts and claims, and quotes no measured figure by hand.
func TestStepDecksShowTheReferenceRun(t *testing.T) {
	for _, name := range decks(t) {
		n, ok := stepOf(name)
		if !ok || course.All()[n].Unrecorded {
			continue // not a step's deck, or its step has no reference run yet
		}
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			r := reference(t, n)
			for file := range report.SlideFiles(r) {
				if strings.HasSuffix(file, "-series.svg") {
					continue // the run over time: drawn for every step, shown where a deck's story needs it
				}
				if !bytes.Contains(src, []byte("img/generated/"+file)) {
					t.Errorf("does not include img/generated/%s (step %d's reference run)", file, n)
				}
			}
			if editionOf(name).dir == "vi" { // Vietnamese prose writes 1,537 as "1.537" and 5.3 as "5,3"
				typed(t, messages.SwapDecimalMarks(string(src)), r)
			} else {
				typed(t, string(src), r)
			}
		})
	}
}

// typed fails on a measured figure of the reference run written into the
// deck: those come from img/generated/, or they drift from the data. A
// figure the article itself gives (it appears in a claim's article text)
// may be quoted, and so may the run's settings (its number of users).
func typed(t *testing.T, src string, r *result.Result) {
	t.Helper()
	number := regexp.MustCompile(`\d[\d,.]*\d|\d`)
	article := map[string]bool{}
	for _, c := range r.Claims {
		for _, x := range number.FindAllString(c.Article, -1) {
			article[x] = true
		}
	}
	for _, x := range r.Runs {
		article[fmt.Sprint(x.VUs)] = true
	}
	// An HTTP status named with its reason phrase ("202 Accepted") is a
	// word of the protocol, not a figure, even when a run measured the same number.
	status := regexp.MustCompile(`\b[1-5]\d\d (OK|Created|Accepted|Not Modified|Bad Request|Payload Too Large|Content Too Large|Unprocessable Content|Too Many Requests|Service Unavailable)\b`)
	src = status.ReplaceAllString(src, "")
	words := map[string]bool{}
	for _, x := range number.FindAllString(src, -1) {
		words[x] = true
	}
	for _, c := range r.Claims {
		for _, x := range number.FindAllString(c.Measured, -1) {
			if len(strings.Trim(x, ".,")) < 3 || article[x] {
				continue // 1- and 2-digit numbers are step numbers, counts, ports' pieces…
			}
			if words[x] {
				t.Errorf("the deck types %q, a figure of the reference run (claim %s): include img/generated/ instead", x, c.ID)
			}
		}
	}
}

func reference(t *testing.T, n int) *result.Result {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "results", "reference", fmt.Sprintf("step-%d.json", n)))
	if err != nil {
		t.Fatal(err)
	}
	var r result.Result
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	for _, s := range scenario.All() { // as make report does: claims recorded before they carried a source get their step's
		if s.N == n {
			s.FillSources(&r)
		}
	}
	return &r
}

// TestGeneratedFiguresMatchTheReference: the committed charts and claims
// tables are exactly what `make report REF=1` draws from
// results/reference/*.json, and nothing else is in img/generated/.
func TestGeneratedFiguresMatchTheReference(t *testing.T) {
	refs, err := filepath.Glob(filepath.Join("..", "results", "reference", "step-*.json"))
	if err != nil || len(refs) == 0 {
		t.Fatalf("no reference runs: %v", err)
	}
	want := map[string]string{}
	var all []*result.Result
	for n := 0; n < 100; n++ {
		if _, err := os.Stat(filepath.Join("..", "results", "reference", fmt.Sprintf("step-%d.json", n))); err != nil {
			continue
		}
		r := reference(t, n)
		all = append(all, r)
		for name, body := range report.SlideFiles(r) {
			want[name] = body
		}
	}
	if len(all) != len(refs) {
		t.Fatalf("reference runs not numbered step-0 … : %v", refs)
	}
	want["claims-all.html"] = report.Summary(all)
	have, _ := filepath.Glob(filepath.Join("img", "generated", "*"))
	var stale []string
	for _, p := range have {
		if _, ok := want[filepath.Base(p)]; !ok {
			stale = append(stale, p)
		}
	}
	sort.Strings(stale)
	if len(stale) > 0 {
		t.Errorf("not drawn from any reference run (delete them): %v", stale)
	}
	for name, body := range want {
		got, err := os.ReadFile(filepath.Join("img", "generated", name))
		if err != nil || string(got) != body {
			t.Errorf("img/generated/%s differs from what results/reference draws: run `make report REF=1` and commit slides/img/generated", name)
		}
	}
}

// codeFile is the file a .code command pulls in, as written in the deck.
func codeFile(c present.Code) string {
	f := strings.Fields(c.Cmd)
	for _, x := range f[1:] {
		if !strings.HasPrefix(x, "-") {
			return x
		}
	}
	return ""
}

// TestTheAnswerComesAfterTheExercise: a step with an exercise shows its
// TODO first and its answer later. The slide titled "The exercise…" pulls
// steps/NN-slug/exercise.go (the TODO, live from the repo); a slide titled
// "The answer…" pulls solutions/NN-slug/ and comes after it; no slide
// before the exercise shows solutions/ code. A Vietnamese deck's titles are
// "Bài tập…" and "Lời giải…"; its paths are resolved from slides/vi/.
func TestTheAnswerComesAfterTheExercise(t *testing.T) {
	for _, name := range decks(t) {
		slug := strings.TrimSuffix(filepath.Base(name), ".slide")
		if _, err := os.Stat(filepath.Join("..", "steps", slug, "exercise.go")); err != nil {
			continue // steps 0 and 1 have nothing to write
		}
		ed := editionOf(name)
		t.Run(name, func(t *testing.T) {
			doc := parse(t, name)
			exercise, answer := -1, -1
			for i, s := range doc.Sections {
				var files []string // relative to slides/, wherever the deck is
				walk([]present.Section{s}, func(_ present.Section, e present.Elem) {
					if c, ok := e.(present.Code); ok {
						files = append(files, filepath.ToSlash(filepath.Join(ed.dir, codeFile(c))))
					}
				})
				solution := slices.ContainsFunc(files, func(f string) bool { return strings.HasPrefix(f, "../solutions/") })
				switch {
				case strings.HasPrefix(s.Title, ed.exercise):
					if exercise < 0 {
						exercise = i
					}
					if !slices.Contains(files, "../steps/"+slug+"/exercise.go") {
						t.Errorf("slide %q shows %v, not the TODO of ../steps/%s/exercise.go", s.Title, files, slug)
					}
					if solution {
						t.Errorf("slide %q shows the reference answer (solutions/)", s.Title)
					}
				case slices.ContainsFunc(ed.answer, func(p string) bool { return strings.HasPrefix(s.Title, p) }):
					if answer < 0 {
						answer = i
					}
					if !slices.ContainsFunc(files, func(f string) bool { return strings.HasPrefix(f, "../solutions/"+slug+"/") }) {
						t.Errorf("slide %q shows %v, not the answer in ../solutions/%s/", s.Title, files, slug)
					}
				default:
					if solution && (exercise < 0 || answer < 0) {
						t.Errorf("slide %q shows solutions/ code before the answer slide", s.Title)
					}
				}
			}
			switch {
			case exercise < 0:
				t.Errorf("no slide titled \"%s…\" showing ../steps/%s/exercise.go", ed.exercise, slug)
			case answer < 0:
				t.Errorf("no slide titled \"%s…\" showing ../solutions/%s/", ed.answer[0], slug)
			case answer < exercise:
				t.Errorf("the answer (slide %d) comes before the exercise (slide %d)", answer+1, exercise+1)
			}
		})
	}
}

// minutesRE reads the time a presenter note gives: "3 minutes…", "1 minute…",
// or in a Vietnamese deck "3 phút…".
var minutesRE = regexp.MustCompile(`^(\d+) (?:minutes?\b|phút)`)

// noteMinutes is the time a slide's notes begin with, or -1.
func noteMinutes(notes []string) int {
	if len(notes) == 0 {
		return -1
	}
	m := minutesRE.FindStringSubmatch(strings.TrimSpace(notes[0]))
	if m == nil {
		return -1
	}
	var n int
	fmt.Sscan(m[1], &n)
	return n
}

// TestDeckTimeIsTheSumOfItsSlides: the time a deck's title notes give is
// the sum of its slides' times (±1 minute), and every slide's notes begin
// with its time — so the agenda a facilitator plans with is the deck's.
// An exercise slot is said in words after it ("then the exercise slot…")
// and is not part of the deck's time.
func TestDeckTimeIsTheSumOfItsSlides(t *testing.T) {
	for _, name := range decks(t) {
		t.Run(name, func(t *testing.T) {
			doc := parse(t, name)
			head := noteMinutes(doc.TitleNotes)
			if head < 0 {
				t.Fatalf("the title notes do not begin with the deck's time (\"12 minutes …\"): %q", doc.TitleNotes)
			}
			sum := 0
			for _, s := range doc.Sections {
				m := noteMinutes(s.Notes)
				if m < 0 {
					t.Errorf("slide %q: notes do not begin with its time (\"1 minute.\")", s.Title)
					continue
				}
				sum += m
			}
			if d := head - sum; d < -1 || d > 1 {
				t.Errorf("the title notes say %d minutes, the slides' notes add up to %d", head, sum)
			}
		})
	}
}

// measuredBench reads the full bench durations `make agenda` measured
// (docs/timings.json, which the facilitator guide's tables are generated
// from): step → seconds, rounded up.
func measuredBench(t *testing.T) map[int]int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "docs", "timings.json"))
	if err != nil {
		t.Fatalf("%v: measure the benches with `make agenda`", err)
	}
	var timings struct {
		Steps []struct {
			Step  int
			Bench struct{ Seconds float64 }
		}
	}
	if err := json.Unmarshal(b, &timings); err != nil {
		t.Fatalf("docs/timings.json: %v", err)
	}
	out := map[int]int{}
	for _, s := range timings.Steps {
		out[s.Step] = int(math.Ceil(s.Bench.Seconds))
	}
	return out
}

// TestLiveDemosFitTheirMeasuredBench: a deck's "Live demo" slide gives at
// least the time its bench was measured to take (the guide's table), or
// says the bench runs behind the next slides.
func TestLiveDemosFitTheirMeasuredBench(t *testing.T) {
	bench := measuredBench(t)
	for _, name := range decks(t) {
		n, ok := stepOf(name)
		if !ok {
			continue
		}
		ed := editionOf(name)
		doc := parse(t, name)
		for _, s := range doc.Sections {
			if s.Title != ed.demo {
				continue
			}
			notes := strings.Join(s.Notes, " ")
			if m := noteMinutes(s.Notes); m*60 < bench[n] && !strings.Contains(notes, ed.behind) {
				t.Errorf("%s: the live demo is given %d minute(s); step %d's bench was measured at %d s (docs/timings.json, `make agenda`)", name, m, n, bench[n])
			}
		}
	}
}

// TestSlideChartsReadFromTheBack: the charts the decks show are the slide
// figures (internal/harness/report's SlideChart), in type no smaller than 24 of
// their 1000 units — about 19 px on a 1024×768 projector — not the
// report's full charts.
func TestSlideChartsReadFromTheBack(t *testing.T) {
	charts, _ := filepath.Glob(filepath.Join("img", "generated", "step-*-slide.svg"))
	if len(charts) == 0 {
		t.Fatal("no slide charts in img/generated: run `make report REF=1`")
	}
	size := regexp.MustCompile(`font-size="(\d+)"`)
	for _, c := range charts {
		b, err := os.ReadFile(c)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range size.FindAllStringSubmatch(string(b), -1) {
			var n int
			fmt.Sscan(m[1], &n)
			if n < 24 {
				t.Errorf("%s: type of size %d: too small to read from the back of a room", c, n)
			}
		}
	}
	for _, s := range course.All() {
		if n := len(s.Slide.Variants); n != 0 && (n < 2 || n > 3) {
			t.Errorf("step %d's slide chart shows %d run(s); two or three carry one message: list the \"before\" row and the step's own in its Slide.Variants (internal/harness/course/steps.go), each a row of its K6 list and of its bench's Variants (internal/harness/scenario/step%02d.go)", s.N, n, s.N)
		}
	}
}
