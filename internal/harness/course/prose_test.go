package course

import (
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
	root := filepath.Join("..", "..", "..")
	for _, c := range []struct {
		what    string
		markers []string // what a line that lists the steps contains
		want    []int
		files   []string
	}{
		{"drill", []string{"`make step-2 drill`", "drill: build ##", `"help.drill"`}, drills,
			[]string{"Makefile", "README.md", "README.vi.md", "cmd/workshop/texts.go"}},
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
				for _, got := range stepLists(line) { // a catalogue line has both languages
					found = true
					if !slices.Equal(got, c.want) {
						t.Errorf("%s:%d names steps %v for %s; the manifest (internal/harness/course/steps.go) marks %v:\n\t%s", f, i+1, got, c.what, c.want, strings.TrimSpace(line))
					}
				}
			}
			if !found {
				t.Errorf("%s: no line names the steps of %s (the test looks for one of %q and a list such as \"2, 6, 7\" or \"1–5\")", f, c.what, c.markers)
			}
		}
	}
}

// stepLists reads the lists of step numbers in line, each written as
// "1–5" or "2, 6, 7" (after "steps", "bước" or an opening parenthesis).
var stepListRE = regexp.MustCompile(`(?:steps|bước|\()\s*(\d+(?:–\d+|(?:, \d+)+))`)

func stepLists(line string) [][]int {
	var lists [][]int
	for _, m := range stepListRE.FindAllStringSubmatch(line, -1) {
		lists = append(lists, numbers(m[1]))
	}
	return lists
}

func numbers(list string) []int {
	if lo, hi, ok := strings.Cut(list, "–"); ok {
		a, _ := strconv.Atoi(lo)
		b, _ := strconv.Atoi(hi)
		var out []int
		for n := a; n <= b; n++ {
			out = append(out, n)
		}
		return out
	}
	var out []int
	for _, f := range strings.Split(list, ", ") {
		n, _ := strconv.Atoi(f) // the expression matched digits
		out = append(out, n)
	}
	return out
}
