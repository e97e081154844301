package scenario

import (
	"encoding/json"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/harness/gotree"
	"github.com/peakload/workshop/internal/harness/stack"
)

// root is the repository, seen from this package's directory.
const root = "../../.."

// glob lists the names (not paths) matching pattern under root.
func glob(t *testing.T, pattern string) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(root, pattern))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range paths {
		names = append(names, filepath.Base(p))
	}
	return names
}

// The manifest is the one declaration of a step: every directory, script,
// hint, bench, README row and reference run must agree with it, so a new
// step cannot half-exist (and, say, silently skip the must-fail gate).
// internal/harness/course's TestEveryEntryHasItsParts checks each entry's own
// files: its numbering, folders, exercise and deck.
func TestManifestMatchesTheTree(t *testing.T) {
	var dirs, scripts []string
	for _, m := range manifest() {
		dirs = append(dirs, filepath.Base(m.Dir()))
		scripts = append(scripts, filepath.Base(m.K6Script()))
	}
	t.Run("steps/", func(t *testing.T) {
		if got := glob(t, "steps/[0-9][0-9]-*"); !slices.Equal(got, dirs) {
			t.Errorf("steps/ holds %v, the manifest declares %v", got, dirs)
		}
	})
	t.Run("k6/", func(t *testing.T) {
		if got := glob(t, "k6/[0-9][0-9]-*.js"); !slices.Equal(got, scripts) {
			t.Errorf("k6/ holds %v, the manifest declares %v", got, scripts)
		}
	})
	t.Run("solutions/", func(t *testing.T) {
		for _, name := range glob(t, "solutions/[0-9][0-9]-*") {
			if !slices.Contains(dirs, name) {
				t.Errorf("solutions/%s belongs to no declared step", name)
			}
		}
	})
	t.Run("benches", func(t *testing.T) {
		var registered []int
		for _, s := range All() {
			registered = append(registered, s.N)
		}
		var declared []int
		for _, m := range manifest() {
			declared = append(declared, m.N)
		}
		if !slices.Equal(registered, declared) {
			t.Errorf("benches registered for steps %v, the manifest declares %v", registered, declared)
		}
	})
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows := regexp.MustCompile(`(?m)^\| \[(\d+) ([a-z0-9-]+)\]\((steps/[^)]+)/README\.md\) \|`).FindAllStringSubmatch(string(readme), -1)
	t.Run("README table", func(t *testing.T) {
		if len(rows) != len(manifest()) {
			t.Errorf("README.md's table has %d step rows, the manifest declares %d steps", len(rows), len(manifest()))
		}
	})
	for i, m := range manifest() {
		t.Run(filepath.Base(m.Dir()), func(t *testing.T) {
			for _, sv := range m.Services {
				if !slices.Contains(stack.All, sv) {
					t.Errorf("service %q: internal/harness/stack starts no such service", sv)
				}
			}
			if i < len(rows) {
				if n, _ := strconv.Atoi(rows[i][1]); n != m.N || rows[i][2] != m.Slug || rows[i][3] != m.Dir() {
					t.Errorf("README.md's row %d is %q, want [%d %s](%s/README.md)", i+1, rows[i][0], m.N, m.Slug, m.Dir())
				}
			}
			checkReference(t, m)
			if m.Exercise {
				if b, _ := os.ReadFile(filepath.Join(root, m.Dir(), "hints.txt")); len(Hints(string(b))) == 0 {
					t.Errorf("%s/hints.txt holds no hint", m.Dir())
				}
			}
		})
	}
}

// checkReference: the reference run of the step is there and is its own,
// or the entry says it has none yet (Unrecorded, as make new-step writes
// it) and there is none.
func checkReference(t *testing.T, m Manifest) {
	t.Helper()
	path := fmt.Sprintf("results/reference/step-%d.json", m.N)
	b, err := os.ReadFile(filepath.Join(root, path))
	if m.Unrecorded {
		if err == nil {
			t.Errorf("%s is recorded: drop Unrecorded from step %d's entry in internal/harness/course/steps.go", path, m.N)
		} else {
			t.Logf("step %d has no reference run yet (make step-%d bench SOLUTION=1, then copy results/step-%d/latest.json to %s)", m.N, m.N, m.N, path)
		}
		return
	}
	if err != nil {
		t.Errorf("no reference run: %v (make step-%d bench SOLUTION=1, then copy results/step-%d/latest.json there)", err, m.N, m.N)
		return
	}
	var r struct {
		Step int    `json:"step"`
		Slug string `json:"slug"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Errorf("%s: %v", path, err)
	} else if r.Step != m.N || r.Slug != m.Slug {
		t.Errorf("%s is the run of step %d %q, want %d %q", path, r.Step, r.Slug, m.N, m.Slug)
	}
}

// The answer stays out of reach: no file a learner reads while solving a
// step (its main.go, exercise.go and the other files beside them, tests
// and the build-tag swap file aside) imports that step's own solutions/
// package. Earlier steps' solutions are fine: they are the given past.
func TestLearnerFilesDoNotImportTheirAnswer(t *testing.T) {
	for _, m := range manifest() {
		if !m.Exercise {
			continue
		}
		t.Run(filepath.Base(m.Dir()), func(t *testing.T) {
			own := "github.com/peakload/workshop/" + m.SolutionDir()
			files, _ := filepath.Glob(filepath.Join(root, m.Dir(), "*.go"))
			for _, f := range files {
				base := filepath.Base(f)
				if strings.HasSuffix(base, "_test.go") || base == "solution.go" || base == "solution_swap.go" {
					continue
				}
				file, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
				if err != nil {
					t.Fatal(err)
				}
				for _, imp := range file.Imports {
					if p, _ := strconv.Unquote(imp.Path.Value); p == own {
						t.Errorf("%s/%s imports %s: the answer is one click from the exercise; move what the learner is given to internal/", m.Dir(), base, m.SolutionDir())
					}
				}
			}
		})
	}
}

// Given code never imports an answer: outside steps/ (whose main.go serves
// the earlier steps' techniques and whose build-tag swap is the answer)
// nothing imports solutions/. A given package that builds on earlier
// answers takes them as parameters (internal/given/readpath, replica).
func TestOnlyStepsImportAnswers(t *testing.T) {
	paths, err := gotree.Files(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range paths {
		rel, _ := filepath.Rel(root, path)
		if strings.HasPrefix(filepath.ToSlash(rel), "steps/") {
			continue
		}
		file, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range file.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if !strings.HasPrefix(p, "github.com/peakload/workshop/solutions/") {
				continue
			}
			t.Errorf("%s imports %s: given code imports no answer; take it as a parameter (internal/given/readpath) or move what both need to internal/", rel, p)
		}
	}
}
