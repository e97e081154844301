package course

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/given/messages"
)

// root is the repository, seen from this package's directory.
const root = "../../.."

func exists(path string) bool {
	_, err := os.Stat(filepath.Join(root, path))
	return err == nil
}

// Every entry has all its parts: the step's folders and files, its deck
// (English and Vietnamese), its k6 script, its README row, its panels. A
// step cannot half-exist. (internal/harness/scenario's TestManifestMatchesTheTree
// checks the rest: a bench registered per entry, the README's table, the
// reference run, hints and mutants against Exercise.)
func TestEveryEntryHasItsParts(t *testing.T) {
	known := []Panel{CPUPanel, DBPanel, RedisPanel, PersistedPanel, QueuePanel, BodyPanel}
	for i, s := range All() {
		t.Run(filepath.Base(s.Dir()), func(t *testing.T) {
			if s.N != i {
				t.Fatalf("entry %d declares step %d: the steps are numbered from 0 in order", i, s.N)
			}
			if !regexp.MustCompile(`^[a-z][a-z0-9-]*$`).MatchString(s.Slug) {
				t.Errorf("slug %q: lower case, digits and dashes", s.Slug)
			}
			parts := []string{s.Dir() + "/README.md", s.Dir() + "/README.vi.md", s.Dir() + "/main.go", s.Dir() + "/check_test.go",
				s.K6Script(), s.Deck(), "slides/vi/" + filepath.Base(s.Deck())}
			if s.Exercise {
				parts = append(parts, s.Dir()+"/exercise.go", s.Dir()+"/hints.txt", s.SolutionDir())
			}
			if s.Exercise && !s.Unrecorded && s.ExerciseMinutes <= 0 {
				t.Error("no ExerciseMinutes: the facilitator guide plans the exercise's slot with our estimate")
			}
			if !s.Exercise && s.ExerciseMinutes != 0 {
				t.Errorf("ExerciseMinutes %d, but the entry declares no exercise", s.ExerciseMinutes)
			}
			for _, p := range parts {
				if !exists(p) {
					t.Errorf("%s is missing", p)
				}
			}
			// No exercise: none of the files that hold, swap and prove one.
			for _, p := range []string{s.Dir() + "/exercise.go", s.Dir() + "/hints.txt", s.Dir() + "/testdata/mutants", s.Dir() + "/testdata/valid"} {
				if !s.Exercise && exists(p) {
					t.Errorf("%s exists, but the entry declares no exercise for it to replace or hint at", p)
				}
			}
			for _, sv := range s.Services {
				if !slices.Contains([]string{Postgres, Redis, Mongo}, sv) {
					t.Errorf("unknown service %q", sv)
				}
			}
			if len(s.Panels) == 0 {
				t.Error("no Panels: name the counter its lesson is about (or CPUPanel)")
			}
			for _, p := range s.Panels {
				if !slices.Contains(known, p) {
					t.Errorf("unknown panel %q", p)
				}
			}
			if s.Row.Adds == "" || s.Row.Article == "" || s.Row.Theirs == "" || s.Row.Proof == "" {
				t.Errorf("the README row is incomplete: %+v", s.Row)
			}
			if m := s.Slide.Mark; m != nil && (m.Row < 0 || m.Row >= len(s.Slide.Variants) || m.Per == 0) {
				t.Errorf("the slide's mark %+v: its row must be one of the %d runs shown, its ratio a ratio", *m, len(s.Slide.Variants))
			}
		})
	}
}

// The k6 script runs the variants the entry lists, under the same names
// and in the same order as the Go driver's constants (step 9 builds its
// list from params.json, so its entry lists none).
func TestK6ScriptsRunTheDeclaredVariants(t *testing.T) {
	call := regexp.MustCompile(`sequential\(params, \[([^\]]*)\]`)
	for _, s := range All() {
		b, err := os.ReadFile(filepath.Join(root, s.K6Script()))
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		var got []Variant
		if m := call.FindStringSubmatch(src); m != nil {
			for _, v := range strings.Split(m[1], ",") {
				got = append(got, Variant(strings.Trim(strings.TrimSpace(v), "'\"")))
			}
		} else if m := regexp.MustCompile(`: \[('[^\]]*')\];`).FindStringSubmatch(src); m != nil { // step 0: a variable
			for _, v := range strings.Split(m[1], ",") {
				got = append(got, Variant(strings.Trim(strings.TrimSpace(v), "'\"")))
			}
		}
		if !slices.Equal(got, s.K6) {
			t.Errorf("%s runs %q, the manifest declares %q", s.K6Script(), got, s.K6)
		}
	}
}

// Step 3's k6 script holds its 304 share to the share the band's lower
// bound implies (÷ Lo on the bodies ⇔ 1 − 1/Lo of the polls answered 304):
// the band is written once, here, and this test keeps the script's figure
// in step with it.
func TestETagThresholdFollowsTheBand(t *testing.T) {
	s, _ := Get(3)
	b, err := os.ReadFile(filepath.Join(root, s.K6Script()))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`server_304_share: \['value>=([0-9.]+)'\]`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("%s has no server_304_share threshold", s.K6Script())
	}
	want := strings.TrimRight(strings.TrimRight(strconvFloor(1-1/ETagBand.Lo), "0"), ".")
	if string(m[1]) != want {
		t.Errorf("%s wants a 304 share ≥ %s; the band's %g implies %s", s.K6Script(), m[1], ETagBand.Lo, want)
	}
}

func TestList(t *testing.T) {
	for ns, want := range map[string]string{"": "", "2": "2", "2 6": "2 and 6", "2 6 7": "2, 6 and 7"} {
		var in []int
		for _, f := range strings.Fields(ns) {
			in = append(in, int(f[0]-'0'))
		}
		if got := List(in); got != want {
			t.Errorf("List(%v) = %q, want %q", in, got, want)
		}
	}
}

// strconvFloor writes x floored to two decimals.
func strconvFloor(x float64) string {
	return fmt.Sprintf("%.2f", math.Floor(x*100)/100)
}

// TestEachRowSaysTheSameFiguresInBothLanguages: a step's Vietnamese row
// (Row.Vi, which README.vi.md shows) is complete and carries the English
// row's figures, cell by cell and in order: only the words are translated.
func TestEachRowSaysTheSameFiguresInBothLanguages(t *testing.T) {
	figures := regexp.MustCompile(`\d(?:[\d.,]*\d)?`)
	for _, s := range All() {
		en, vi := s.Row.In(messages.English), s.Row.In(messages.Vietnamese)
		for _, c := range [][3]string{{"Adds", en.Adds, vi.Adds}, {"Article", en.Article, vi.Article}, {"Theirs", en.Theirs, vi.Theirs}, {"Proof", en.Proof, vi.Proof}} {
			if c[2] == "" {
				t.Errorf("step %d: Row.Vi.%s is empty: write the Vietnamese of %q", s.N, c[0], c[1])
				continue
			}
			if a, b := figures.FindAllString(c[1], -1), figures.FindAllString(c[2], -1); !slices.Equal(a, b) {
				t.Errorf("step %d: Row.Vi.%s %q holds the figures %v, the English %q holds %v", s.N, c[0], c[2], b, c[1], a)
			}
		}
	}
}
