package course

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The prose that names which steps have a drill or a LATENCY run (make
// help, the READMEs' command tables, the maintainer's help) names the
// steps this manifest marks, no more, no fewer: a list typed by hand must
// not drift from the one fact.
func TestStepListsInProseMatchTheManifest(t *testing.T) {
	var drills, latency []int
	for _, s := range All() {
		if s.Drill != NoDrill {
			drills = append(drills, s.N)
		}
		if s.TestLatency {
			latency = append(latency, s.N)
		}
	}
	root := filepath.Join("..", "..")
	for _, c := range []struct {
		what    string
		markers []string // what a line that lists the steps contains
		want    []int
		files   []string
	}{
		{"drill", []string{"`make step-2 drill`", "drill: build ##", `"help.drill"`}, drills,
			[]string{"Makefile", "README.md", "README.vi.md", "internal/messages/help.go"}},
		{"test-latency", []string{"`make test-latency`", "test-latency: build-dev ##", "  test-latency  "}, latency,
			[]string{"Makefile", "README.md", "README.vi.md", "cmd/workshop-dev/main.go"}},
	} {
		for _, f := range c.files {
			b, err := os.ReadFile(filepath.Join(root, f))
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for i, line := range strings.Split(string(b), "\n") {
				if !slices.ContainsFunc(c.markers, func(m string) bool { return strings.Contains(line, m) }) {
					continue
				}
				got, ok := stepList(line)
				if !ok {
					continue
				}
				found = true
				if !slices.Equal(got, c.want) {
					t.Errorf("%s:%d names steps %v for %s; the manifest (internal/course/steps.go) marks %v:\n\t%s", f, i+1, got, c.what, c.want, strings.TrimSpace(line))
				}
			}
			if !found {
				t.Errorf("%s: no line names the steps of %s (the test looks for one of %q and a list such as \"2, 6, 7\" or \"1–5\")", f, c.what, c.markers)
			}
		}
	}
}

// stepList reads a list of step numbers written as "1–5" or "2, 6, 7"
// (after "steps", "bước" or an opening parenthesis).
var stepListRE = regexp.MustCompile(`(?:steps|bước|\()\s*(\d+(?:–\d+|(?:, \d+)+))`)

func stepList(line string) ([]int, bool) {
	m := stepListRE.FindStringSubmatch(line)
	if m == nil {
		return nil, false
	}
	if lo, hi, ok := strings.Cut(m[1], "–"); ok {
		a, _ := strconv.Atoi(lo)
		b, _ := strconv.Atoi(hi)
		var out []int
		for n := a; n <= b; n++ {
			out = append(out, n)
		}
		return out, true
	}
	var out []int
	for _, f := range strings.Split(m[1], ", ") {
		n, err := strconv.Atoi(f)
		if err != nil {
			panic(fmt.Sprint(m))
		}
		out = append(out, n)
	}
	return out, true
}
