package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/config"
	"github.com/peakload/workshop/internal/harness/result"
	"github.com/peakload/workshop/internal/harness/scenario"
	"github.com/peakload/workshop/internal/harness/stepflag"
)

// The learner's progress lives in .workshop/progress/ (git-ignored, gone
// with `make clean`): per step, how many hints were shown and the hashes of
// every exercise.go its check passed on. "Solved" then follows the content:
// the check passed on the file exactly as it is now — so after a failed try,
// putting back the version that passed is solved again.

func progressDir() string { return filepath.Join(stateDir, "progress") }

func progressFile(n int, what string) string {
	return filepath.Join(progressDir(), fmt.Sprintf("step-%d.%s", n, what))
}

// hintsSeen is how many of step n's hints were shown.
func hintsSeen(n int) int {
	b, err := os.ReadFile(progressFile(n, "hints"))
	if errors.Is(err, os.ErrNotExist) { // where earlier versions kept it
		b, err = os.ReadFile(filepath.Join(stateDir, "hints", strconv.Itoa(n)))
	}
	if err != nil {
		return 0
	}
	seen, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return max(seen, 0)
}

func setHintsSeen(n, seen int) error {
	if err := os.MkdirAll(progressDir(), 0o755); err != nil {
		return err
	}
	return os.WriteFile(progressFile(n, "hints"), []byte(strconv.Itoa(seen)+"\n"), 0o644)
}

// exerciseHash is the SHA-256 of the step's exercise.go as it is now.
func exerciseHash(step scenario.Manifest) (string, error) {
	b, err := os.ReadFile(filepath.Join(step.Dir(), "exercise.go"))
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// passedHashes are the hashes of every exercise.go step n's check passed
// on, one a line in step-N.passed; step-N.check, where earlier versions
// kept only the last one, still counts.
func passedHashes(n int) []string {
	var out []string
	for _, what := range []string{"passed", "check"} {
		b, _ := os.ReadFile(progressFile(n, what))
		out = append(out, strings.Fields(string(b))...)
	}
	return out
}

// recordCheck remembers the content the check just judged: a pass adds its
// hash to those that passed; a failure removes it (the check, updated by a
// git pull, may now refuse a file it once took). Other contents keep their
// passes. Runs on the reference (SOLUTION=1) prove nothing about the
// learner's file and are not recorded.
func recordCheck(cfg config.Config, step scenario.Manifest, passed bool) {
	if !step.Exercise || cfg.Solution {
		return
	}
	h, err := exerciseHash(step)
	if err != nil {
		return
	}
	_ = writePassed(step.N, h, passed)
}

// writePassed adds h to step n's passed hashes (passed) or removes it.
func writePassed(n int, h string, passed bool) error {
	kept := slices.DeleteFunc(passedHashes(n), func(x string) bool { return x == h })
	if passed {
		kept = append(kept, h)
	}
	slices.Sort(kept)
	kept = slices.Compact(kept)
	if err := os.MkdirAll(progressDir(), 0o755); err != nil {
		return err
	}
	_ = os.Remove(progressFile(n, "check")) // folded into step-N.passed
	return os.WriteFile(progressFile(n, "passed"), []byte(strings.Join(append(kept, ""), "\n")), 0o644)
}

// exerciseState is a step's exercise as `make progress` reports it:
// "solved" when the check passed on exercise.go exactly as it is now,
// "changed since its check passed" when it passed on some other content
// only, else "to do".
func exerciseState(step scenario.Manifest) string {
	passed := passedHashes(step.N)
	if len(passed) == 0 {
		return "to do"
	}
	if h, err := exerciseHash(step); err == nil && slices.Contains(passed, h) {
		return "solved"
	}
	return "changed since its check passed"
}

// runHint is `make step-N hint`: the hints seen so far, then the next one.
func runHint(_ context.Context, cfg config.Config, args []string) error {
	step, err := stepflag.Parse("hint", args)
	if err != nil {
		return err
	}
	if !step.Exercise {
		fmt.Print(messages.T("hint.no_exercise", step.N, step.Dir(), step.N))
		return nil
	}
	b, err := os.ReadFile(hintsFile(step.Manifest))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	hints := scenario.Hints(string(b))
	if len(hints) == 0 {
		fmt.Print(messages.T("hint.none", step.N, step.Dir(), step.N))
		return nil
	}
	fmt.Print(hintText(step.N, hints, hintsSeen(step.N)))
	return setHintsSeen(step.N, min(hintsSeen(step.N)+1, len(hints)))
}

// hintsFile is the step's hints in the run's language (hints.vi.txt),
// or the English ones while no translation exists.
func hintsFile(step scenario.Manifest) string {
	return messages.Localized(filepath.Join(step.Dir(), "hints.txt"))
}

// hintText shows the seen hints and the next one (all of them, with a
// word about diff, once the last one has been shown).
func hintText(n int, hints []string, seen int) string {
	show := min(seen+1, len(hints))
	var b strings.Builder
	fmt.Fprint(&b, messages.T("hint.head", n, show, len(hints)))
	for i, h := range hints[:show] {
		mark := " "
		if i == show-1 && seen < len(hints) {
			mark = "→"
		}
		fmt.Fprintf(&b, " %s %d. %s\n", mark, i+1, h)
	}
	if show == len(hints) {
		fmt.Fprint(&b, messages.T("hint.last", n))
	}
	return b.String()
}

// Progress is `make progress` as data: what FORMAT=json writes, so a lead
// can collect many forks' progress and read them side by side.
type Progress struct {
	Who         string         `json:"who"`    // git's user.name, else $GITHUB_ACTOR, else $USER
	Commit      string         `json:"commit"` // the checked-out commit
	GeneratedAt time.Time      `json:"generated_at"`
	Steps       []StepProgress `json:"steps"`
}

// StepProgress is one step's line.
type StepProgress struct {
	Step      int    `json:"step"`
	Slug      string `json:"slug"`
	Exercise  string `json:"exercise"` // "solved", "to do", "changed since its check passed", "—" (no exercise)
	HintsSeen int    `json:"hints_seen"`
	Hints     int    `json:"hints"`
	LastBench string `json:"last_bench"` // in English: a lead collects the forks' files, whatever each learner reads
	// Read is LastBench in the reader's language (PEAKLOAD_LANG), for the
	// text and markdown tables; never stored.
	Read string `json:"-"`
}

// collectProgress reads .workshop/progress/ and results/ into a Progress.
func collectProgress() Progress {
	p := Progress{Who: whoAmI(), Commit: gitOut("rev-parse", "HEAD"), GeneratedAt: time.Now().UTC()}
	for _, step := range scenario.Steps() {
		sp := StepProgress{Step: step.N, Slug: step.Slug, Exercise: "—", LastBench: lastBench(step, messages.English), Read: lastBench(step, messages.Current())}
		if step.Exercise {
			sp.Exercise = exerciseState(step)
			b, _ := os.ReadFile(hintsFile(step))
			sp.Hints = len(scenario.Hints(string(b)))
			sp.HintsSeen = min(hintsSeen(step.N), sp.Hints)
		}
		p.Steps = append(p.Steps, sp)
	}
	return p
}

func whoAmI() string {
	for _, who := range []string{gitOut("config", "user.name"), settings.Verbs.Actor, settings.Verbs.User} {
		if who != "" {
			return who
		}
	}
	return "unknown"
}

// gitOut is a git command's trimmed output, "" when git fails.
func gitOut(args ...string) string {
	b, err := exec.Command("git", args...).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// runProgress is `make progress`: one line per step, as text, or
// FORMAT=json|markdown (-format) for a lead collecting forks or a CI summary.
func runProgress(_ context.Context, cfg config.Config, args []string) error {
	fs := flag.NewFlagSet("progress", flag.ContinueOnError)
	format := fs.String("format", cfg.Verbs.Format, "text (default), json or markdown")
	if err := fs.Parse(args); err != nil {
		return err
	}
	return writeProgress(os.Stdout, collectProgress(), *format)
}

func writeProgress(w io.Writer, p Progress, format string) error {
	switch format {
	case "", "text":
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, messages.T("progress.header"))
		for _, s := range p.Steps {
			fmt.Fprintf(tw, "%d %s\t%s\t%s\t%s\n", s.Step, s.Slug, exerciseWords(s.Exercise), hintsWords(s), s.read())
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		_, err := fmt.Fprint(w, messages.T("progress.footer"))
		return err
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(p)
	case "markdown": // a CI summary: the lead's language, English unless PEAKLOAD_LANG says otherwise
		fmt.Fprint(w, messages.T("progress.md_head", p.Who, p.Commit))
		for _, s := range p.Steps {
			fmt.Fprintf(w, "| %d %s | %s | %s | %s |\n", s.Step, s.Slug, exerciseWords(s.Exercise), hintsWords(s), strings.ReplaceAll(s.read(), "|", "\\|"))
		}
		_, err := fmt.Fprint(w, messages.T("progress.md_footnote"))
		return err
	}
	return errors.New(messages.T("progress.bad_format", format))
}

// read is the step's last bench in the reader's language; a Progress read
// back from JSON has only the English.
func (s StepProgress) read() string {
	if s.Read != "" {
		return s.Read
	}
	return s.LastBench
}

// exerciseWords is a step's exercise state in the reader's language (the
// JSON and the CI summary keep the English words: a lead collects those).
func exerciseWords(state string) string {
	switch state {
	case "to do":
		return messages.T("progress.to_do")
	case "solved":
		return messages.T("progress.solved")
	case "changed since its check passed":
		return messages.T("progress.changed")
	}
	return state
}

func hintsWords(s StepProgress) string {
	if s.Exercise == "—" {
		return "—"
	}
	return messages.T("progress.hints", s.HintsSeen, s.Hints)
}

// lastBench summarises results/step-N/latest.json in language l: its
// verdicts and whether it measured your code or the reference.
func lastBench(step scenario.Manifest, l messages.Lang) string {
	b, err := os.ReadFile(filepath.Join(resultsDir(), fmt.Sprintf("step-%d", step.N), "latest.json"))
	if err != nil {
		return l.T("progress.no_bench", step.N)
	}
	var r result.Result
	if err := json.Unmarshal(b, &r); err != nil {
		return l.T("progress.unreadable", err)
	}
	// Each claim's verdict in the bench's own words (the function its table
	// prints with): UNSTABLE and "not judged" read here as they read there.
	var verdicts []string
	for _, c := range r.Claims {
		verdicts = append(verdicts, c.ID+" "+c.VerdictIn(l))
	}
	whose := l.T("progress.yours")
	if on, _ := r.Params["solution"].(bool); on {
		whose = l.T("progress.reference")
	} else if !step.Exercise {
		whose = l.T("progress.the_step")
	}
	if q, _ := r.Params["quick"].(bool); q {
		whose += ", QUICK"
	}
	return fmt.Sprintf("%s (%s, %s)", strings.Join(verdicts, "; "), whose, r.StartedAt.Local().Format(l.T("progress.date")))
}
