package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/config"
	"github.com/peakload/workshop/internal/harness/result"
	"github.com/peakload/workshop/internal/harness/scenario"
)

// The hints seen so far and the next one; past the last, all of them and
// a pointer to diff — never an index out of range.
func TestHintText(t *testing.T) {
	hints := []string{"first", "second", "third"}
	for _, tc := range []struct {
		name  string
		seen  int
		shows []string
		hides []string
	}{
		{"first time", 0, []string{"hint 1 of 3", "→ 1. first"}, []string{"second", "make step-3 diff"}},
		{"second time", 1, []string{"hint 2 of 3", "  1. first", "→ 2. second"}, []string{"third"}},
		{"the last", 2, []string{"hint 3 of 3", "→ 3. third", "make step-3 diff"}, nil},
		{"asked again after the last", 3, []string{"hint 3 of 3", "  3. third", "make step-3 diff"}, []string{"→"}},
		{"a state file beyond the hints", 9, []string{"hint 3 of 3"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := hintText(3, hints, tc.seen)
			for _, s := range tc.shows {
				if !strings.Contains(got, s) {
					t.Errorf("missing %q in:\n%s", s, got)
				}
			}
			for _, s := range tc.hides {
				if strings.Contains(got, s) {
					t.Errorf("%q shown too early in:\n%s", s, got)
				}
			}
		})
	}
}

func TestParseSolution(t *testing.T) {
	for _, tc := range []struct {
		in      string
		on, bad bool
	}{
		{"", false, false}, {"0", false, false}, {"false", false, false},
		{"1", true, false}, {"true", true, false},
		{"yes", false, true}, {"2", false, true},
	} {
		t.Run("SOLUTION="+tc.in, func(t *testing.T) {
			on, err := config.ParseSolution(tc.in)
			if on != tc.on || (err != nil) != tc.bad {
				t.Errorf("= %v, %v; want %v, error %v", on, err, tc.on, tc.bad)
			}
		})
	}
}

// A helper of the reference is shown beside the learner's functions; a
// given exported part is not.
func TestIsHelper(t *testing.T) {
	for name, want := range map[string]bool{
		"NotModified": false, "opaque": true, "Guard.Login": false,
		"Guard.reserve": true, "batcher.Add": true, "Batcher.flush": true,
	} {
		t.Run(name, func(t *testing.T) {
			if got := isHelper(name); got != want {
				t.Errorf("isHelper(%q) = %v, want %v", name, got, want)
			}
		})
	}
}

// make progress FORMAT=markdown under PEAKLOAD_LANG=vi: the heading, the
// header and the words are Vietnamese; FORMAT=json keeps the English words
// whatever the reader's language (a lead collects many forks' files), and
// a Progress read back from it prints its English last bench.
func TestProgressInVietnamese(t *testing.T) {
	p := Progress{Who: "an", Commit: "0123456789abcdef", Steps: []StepProgress{
		{Step: 0, Slug: "ceilings", Exercise: "—", LastBench: "A0 REPRODUCED (the step, Dec 2 10:50)", Read: "A0 TÁI HIỆN ĐƯỢC (của bước, 2/12 10:50)"},
		{Step: 2, Slug: "cache-aside", Exercise: "solved", HintsSeen: 1, Hints: 3, LastBench: "none yet (make step-2 bench)"},
	}}
	write := func(l messages.Lang, format string) string {
		defer messages.Use(l)()
		var b strings.Builder
		if err := writeProgress(&b, p, format); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	vi := write(messages.Vietnamese, "markdown")
	for _, want := range []string{"### Tiến độ workshop — an (0123456789ab)", "| bước | bài tập | gợi ý |", "| đã xong | 1/3 |", "TÁI HIỆN ĐƯỢC", "đã xong = `make step-N check` đã pass"} {
		if !strings.Contains(vi, want) {
			t.Errorf("the Vietnamese markdown lacks %q:\n%s", want, vi)
		}
	}
	for _, gone := range []string{"Workshop progress", "| step |", "solved", " of 3", "REPRODUCED"} {
		if strings.Contains(vi, gone) {
			t.Errorf("the Vietnamese markdown still says %q:\n%s", gone, vi)
		}
	}
	en := write(messages.English, "markdown")
	if !strings.Contains(en, "| 2 cache-aside | solved | 1 of 3 | none yet (make step-2 bench) |") || !strings.Contains(en, "### Workshop progress — an") {
		t.Errorf("the English markdown moved:\n%s", en)
	}
	js := write(messages.Vietnamese, "json")
	if strings.Contains(js, "TÁI HIỆN") || !strings.Contains(js, `"exercise": "solved"`) || !strings.Contains(js, "A0 REPRODUCED") {
		t.Errorf("FORMAT=json under vi is not the English file:\n%s", js)
	}
}

// make progress says what the bench said: for every claim of every
// reference run, and for made-up UNSTABLE, not-judged and not-measured ones,
// its last-bench column carries exactly the verdict the bench's own output
// printed for that claim, in both languages. The bench's verdict is read
// from result.Print's output, not recomputed, so the two cannot drift.
func TestProgressSaysWhatTheBenchSaid(t *testing.T) {
	refs, err := filepath.Glob(filepath.Join("..", "..", "results", "reference", "step-*.json"))
	if err != nil || len(refs) == 0 {
		t.Fatalf("no reference runs (%v)", err)
	}
	var runs []result.Result
	for _, path := range refs {
		r, err := result.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, *r)
	}
	made := runs[0] // the same run with every kind of verdict the bench prints
	made.Claims = madeUpClaims()
	runs = append(runs, made)

	manifests := map[int]scenario.Manifest{}
	for _, m := range scenario.Steps() {
		manifests[m.N] = m
	}
	for _, l := range []messages.Lang{messages.English, messages.Vietnamese} {
		for _, r := range runs {
			t.Run(fmt.Sprintf("%s/step-%d/%d-claims", l, r.Step, len(r.Claims)), func(t *testing.T) {
				restore := messages.Use(l)
				defer restore()
				useResults(t, t.TempDir())
				writeLatest(t, r)
				var bench strings.Builder
				r.Print(&bench)
				var want []string
				for _, c := range r.Claims {
					want = append(want, c.ID+" "+benchVerdict(t, bench.String(), c, l))
				}
				got := lastBench(manifests[r.Step], l)
				if !strings.HasPrefix(got, strings.Join(want, "; ")+" (") {
					t.Errorf("make progress says\n  %s\nwhere the bench said\n  %s", got, strings.Join(want, "; "))
				}
			})
		}
	}
}

// madeUpClaims are one claim of each verdict the bench can print.
func madeUpClaims() []result.Claim {
	yes, no := result.Verdict(true), result.Verdict(false)
	c := func(id string) result.Claim {
		return result.Claim{ID: id, Article: "a claim", Measured: "1.0×", Tolerance: "≥ 1.2×"}
	}
	unstableNo, unstableYes, judgedNot, notJudged, busy, notMeasured, plain := c("U0"), c("U1"), c("J0"), c("J1"), c("J2"), c("M0"), c("R0")
	unstableNo.Reproduced, unstableNo.Unstable, unstableNo.Rounds = no, true, []*bool{yes, no, no}
	unstableYes.Reproduced, unstableYes.Unstable, unstableYes.Rounds = yes, true, []*bool{yes, nil, no, yes}
	judgedNot.NotJudged, judgedNot.IfJudged = "wrk-get (client-bound)", no
	notJudged.NotJudged = "k6-post (client-bound)"
	busy.NotJudged, busy.IfJudged = "the machine was busy: others took 60 % of the server's CPUs", yes
	plain.Reproduced = yes
	return []result.Claim{unstableNo, unstableYes, judgedNot, notJudged, busy, notMeasured, plain}
}

func writeLatest(t *testing.T, r result.Result) {
	t.Helper()
	dir := filepath.Join(resultsDir(), fmt.Sprintf("step-%d", r.Step))
	b, err := json.Marshal(r)
	if err == nil {
		err = os.MkdirAll(dir, 0o755)
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, "latest.json"), b, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// benchVerdict finds claim c's verdict in the bench's printed output: the
// claim's block with a marker where the verdict goes gives the text on
// either side of it.
func benchVerdict(t *testing.T, out string, c result.Claim, l messages.Lang) string {
	t.Helper()
	lines := c.LinesIn(l)
	block := l.T("bench.claim", c.ID, c.Source.NameIn(l), lines.Text, lines.Measured, "\x00")
	before, _, _ := strings.Cut(block, "\x00")
	i := strings.Index(out, before)
	if i < 0 {
		t.Fatalf("claim %s's block not found in the bench's output:\n%s", c.ID, out)
	}
	rest := out[i+len(before):]
	j := strings.Index(rest, "\n") // the verdict ends its line (the tolerance follows on its own)
	if j < 0 {
		t.Fatalf("claim %s's verdict line not found in the bench's output:\n%s", c.ID, out)
	}
	return rest[:j]
}

// Solved follows the content: after a failed check, exercise.go put back
// byte for byte to what passed is solved again; a change that never passed
// is not; a content that passed and then failed (a stricter check after a
// git pull) no longer counts.
func TestSolvedFollowsTheContent(t *testing.T) {
	root := t.TempDir()
	t.Chdir(root)
	t.Setenv("PEAKLOAD_DIR", filepath.Join(root, ".workshop"))
	var step scenario.Manifest
	for _, m := range scenario.Steps() {
		if m.Exercise {
			step = m
			break
		}
	}
	if err := os.MkdirAll(step.Dir(), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := config.Config{}
	try := func(content string, passed bool) {
		if err := os.WriteFile(filepath.Join(step.Dir(), "exercise.go"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if passed {
			recordCheck(cfg, step, true)
		}
	}
	state := func(want string) {
		t.Helper()
		if got := exerciseState(step); got != want {
			t.Errorf("exercise state %q, want %q", got, want)
		}
	}
	try("package main // TODO\n", false)
	state("to do")
	try("package main // right\n", true)
	state("solved")
	try("package main // a try that broke it\n", false)
	recordCheck(cfg, step, false)
	state("changed since its check passed")
	try("package main // right\n", false) // put back byte for byte
	state("solved")
	try("package main // right, another way\n", true)
	try("package main // right\n", false)
	state("solved") // both passes count
	recordCheck(config.Config{Solution: true}, step, false)
	state("solved") // SOLUTION=1 proves nothing about this file
	recordCheck(cfg, step, false)
	state("changed since its check passed") // the check now refuses it
	try("package main // right, another way\n", false)
	state("solved")

	// A hash kept by an earlier version (step-N.check, the last pass only) still counts.
	if err := os.Remove(progressFile(step.N, "passed")); err != nil {
		t.Fatal(err)
	}
	h, _ := exerciseHash(step)
	if err := os.WriteFile(progressFile(step.N, "check"), []byte(h+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	state("solved")
}
