package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/config"
	"github.com/peakload/workshop/internal/harness/scenario"
)

// runGrade is what the workflow of a learner's fork runs on each push
// (.github/workflows/progress.yml): the check of every step whose
// exercise.go changed, then the progress table into the job summary
// ($GITHUB_STEP_SUMMARY; stdout without it) and as JSON into
// results/progress.json, the file a lead collects. It fails when a check
// failed, after writing the summary, so the push shows red and says why.
func runGrade(ctx context.Context, cfg config.Config, args []string) error {
	fs := flag.NewFlagSet("grade", flag.ContinueOnError)
	base := fs.String("base", cfg.Verbs.GradeBase, "the commit to diff against (the push's before); default: HEAD's parent")
	which := fs.String("steps", cfg.Verbs.GradeSteps, "steps to check instead of the changed ones: 2,3 or all")
	summary := fs.String("summary", cfg.Verbs.Summary, "a markdown file to append the table to (default: stdout)")
	jsonOut := fs.String("json", filepath.Join(resultsDir(), "progress.json"), "where to write the progress as JSON")
	if err := fs.Parse(args); err != nil {
		return err
	}
	steps, why, err := gradeSteps(*base, *which)
	if err != nil {
		return err
	}
	var lines []string
	var failed []string
	for _, n := range steps {
		err := runCheck(ctx, cfg, []string{"-step", strconv.Itoa(n)})
		if err != nil {
			failed = append(failed, strconv.Itoa(n))
		}
		lines = append(lines, gradeLine(n, err))
	}
	if len(steps) == 0 {
		lines = append(lines, messages.T("grade.none", why))
	}
	p := collectProgress()
	if err := writeGrade(*summary, why, lines, p); err != nil {
		return err
	}
	if err := writeProgressJSON(*jsonOut, p); err != nil {
		return err
	}
	if len(failed) > 0 {
		return errors.New(messages.T("grade.check_failed", strings.Join(failed, ", ")))
	}
	return nil
}

// gradeLine is the summary's line for step n's check: passed, or failed
// with the check's last line (a markdown table's pipes escaped).
func gradeLine(n int, err error) string {
	verdict := messages.T("grade.passed")
	if err != nil {
		verdict = messages.T("grade.failed", strings.ReplaceAll(lastLine(err), "|", "\\|"))
	}
	return messages.T("grade.line", n, verdict)
}

// gradeSteps are the exercise steps to check: the ones named, or those
// whose exercise.go differs between base and HEAD. why says which.
func gradeSteps(base, which string) ([]int, string, error) {
	var exercises []int
	for _, s := range scenario.Steps() {
		if s.Exercise {
			exercises = append(exercises, s.N)
		}
	}
	switch which {
	case "all":
		return exercises, messages.T("grade.all"), nil
	case "":
	default:
		var out []int
		for _, f := range strings.Split(which, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || !slices.Contains(exercises, n) {
				return nil, "", errors.New(messages.T("grade.bad_steps", which, exercises))
			}
			out = append(out, n)
		}
		return out, messages.T("grade.asked"), nil
	}
	if base == "" || strings.Trim(base, "0") == "" { // a new branch's push has an all-zero before
		base = "HEAD~1"
	}
	changed := gitOut("diff", "--name-only", base, "HEAD", "--", "steps/*/exercise.go")
	if gitOut("rev-parse", "--verify", "-q", base) == "" {
		return nil, messages.T("grade.no_base", base), nil
	}
	var out []int
	for _, s := range scenario.Steps() {
		if s.Exercise && slices.Contains(strings.Fields(changed), filepath.ToSlash(filepath.Join(s.Dir(), "exercise.go"))) {
			out = append(out, s.N)
		}
	}
	return out, messages.T("grade.changed", base, len(out)), nil
}

// writeGrade appends the checks run and the progress table, as markdown,
// to the job summary (or prints them).
func writeGrade(summary, why string, lines []string, p Progress) error {
	var w io.Writer = os.Stdout
	if summary != "" {
		f, err := os.OpenFile(summary, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return fmt.Errorf("%s: %w", messages.T("grade.summary"), err)
		}
		defer f.Close()
		w = f
	}
	fmt.Fprint(w, messages.T("grade.head", why, strings.Join(lines, "\n")))
	return writeProgress(w, p, "markdown")
}

func writeProgressJSON(path string, p Progress) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return writeProgress(f, p, "json")
}
