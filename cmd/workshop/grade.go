package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/peakload/workshop/internal/cli"
	"github.com/peakload/workshop/internal/scenario"
)

// runGrade is what the workflow of a learner's fork runs on each push
// (.github/workflows/progress.yml): the check of every step whose
// exercise.go changed, then the progress table into the job summary
// ($GITHUB_STEP_SUMMARY; stdout without it) and as JSON into
// results/progress.json, the file a lead collects. It fails when a check
// failed, after writing the summary, so the push shows red and says why.
func runGrade(ctx context.Context, cfg cli.Config, args []string) error {
	fs := flag.NewFlagSet("grade", flag.ContinueOnError)
	base := fs.String("base", os.Getenv("GRADE_BASE"), "the commit to diff against (the push's before); default: HEAD's parent")
	which := fs.String("steps", os.Getenv("GRADE_STEPS"), "steps to check instead of the changed ones: 2,3 or all")
	summary := fs.String("summary", os.Getenv("GITHUB_STEP_SUMMARY"), "a markdown file to append the table to (default: stdout)")
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
		verdict := "passed"
		if err != nil {
			verdict = "**failed**: " + strings.ReplaceAll(lastLine(err), "|", "\\|")
			failed = append(failed, strconv.Itoa(n))
		}
		lines = append(lines, fmt.Sprintf("- step %d check %s", n, verdict))
	}
	if len(steps) == 0 {
		lines = append(lines, "- no check run: "+why)
	}
	p := collectProgress()
	if err := writeGrade(*summary, why, lines, p); err != nil {
		return err
	}
	if err := writeProgressJSON(*jsonOut, p); err != nil {
		return err
	}
	if len(failed) > 0 {
		return fmt.Errorf("the check of step %s failed (the job summary says where)", strings.Join(failed, ", "))
	}
	return nil
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
		return exercises, "every exercise step, as asked", nil
	case "":
	default:
		var out []int
		for _, f := range strings.Split(which, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || !slices.Contains(exercises, n) {
				return nil, "", fmt.Errorf("-steps %q: want exercise steps (%v) separated by commas, or all", which, exercises)
			}
			out = append(out, n)
		}
		return out, "the steps asked for", nil
	}
	if base == "" || strings.Trim(base, "0") == "" { // a new branch's push has an all-zero before
		base = "HEAD~1"
	}
	changed := gitOut("diff", "--name-only", base, "HEAD", "--", "steps/*/exercise.go")
	if gitOut("rev-parse", "--verify", "-q", base) == "" {
		return nil, fmt.Sprintf("no commit %s to compare with (a shallow clone? the workflow fetches with fetch-depth: 0)", base), nil
	}
	var out []int
	for _, s := range scenario.Steps() {
		if s.Exercise && slices.Contains(strings.Fields(changed), filepath.ToSlash(filepath.Join(s.Dir(), "exercise.go"))) {
			out = append(out, s.N)
		}
	}
	return out, fmt.Sprintf("exercise.go changed since %.12s in %d step(s)", base, len(out)), nil
}

// writeGrade appends the checks run and the progress table, as markdown,
// to the job summary (or prints them).
func writeGrade(summary, why string, lines []string, p Progress) error {
	var w io.Writer = os.Stdout
	if summary != "" {
		f, err := os.OpenFile(summary, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return fmt.Errorf("the job summary: %w", err)
		}
		defer f.Close()
		w = f
	}
	fmt.Fprintf(w, "### Checks run (%s)\n\n%s\n\n", why, strings.Join(lines, "\n"))
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
