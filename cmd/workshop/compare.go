package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/comparison"
	"github.com/peakload/workshop/internal/harness/config"
	"github.com/peakload/workshop/internal/harness/result"
	"github.com/peakload/workshop/internal/harness/scenario"
)

// runCompare is `make compare`. With A and B (two results files of one
// step) it sets the two runs side by side, with the change and a
// significance test over their rounds; without, it prints every step's
// latest claims in one table: ours, the article's, reproduced or not.
func runCompare(_ context.Context, cfg config.Config, args []string) error {
	fs := flag.NewFlagSet("compare", flag.ExitOnError)
	a := fs.String("a", "", "results file of the first run (make compare A=…)")
	b := fs.String("b", "", "results file of the second run (make compare B=…)")
	dir := fs.String("dir", "", "a folder of many people's results files (make compare DIR=…): one table per step, one row per person")
	_ = fs.Parse(args)
	switch {
	case *dir != "":
		return compareFolder(*dir)
	case *a != "" && *b != "":
		return compareTwo(*a, *b)
	case *a != "" || *b != "":
		return errors.New(messages.T("compare.need_both"))
	}
	return compareLatest()
}

// compareTwo prints two runs of one step side by side.
func compareTwo(aPath, bPath string) error {
	ra, err := readResult(aPath)
	if err != nil {
		return fmt.Errorf("A: %w", err)
	}
	rb, err := readResult(bPath)
	if err != nil {
		return fmt.Errorf("B: %w", err)
	}
	if ra.Step != rb.Step {
		return errors.New(messages.T("compare.other_step", ra.Step, rb.Step))
	}
	if step, err := scenario.Get(ra.Step); err == nil { // the claims' lines in the run's language
		step.FillText(ra)
		step.FillText(rb)
	}
	comparison.Print(os.Stdout, aPath, bPath, ra, rb)
	return nil
}

func readResult(path string) (*result.Result, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r result.Result
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", messages.T("compare.not_results", path), err)
	}
	if len(r.Runs) == 0 {
		return nil, errors.New(messages.T("compare.no_runs", path))
	}
	return &r, nil
}

// compareLatest prints every step's latest claims in one table: ours, the
// article's, reproduced or not. It reads results/; run the benches first.
func compareLatest() error {
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, messages.T("compare.latest_header"))
	for _, step := range scenario.All() {
		b, err := os.ReadFile(filepath.Join(resultsDir(), fmt.Sprintf("step-%d", step.N), "latest.json"))
		if err != nil {
			fmt.Fprint(tw, messages.T("compare.no_result", step.N, step.Slug, step.N))
			continue
		}
		var r result.Result
		if err := json.Unmarshal(b, &r); err != nil {
			return fmt.Errorf("%s: %w", messages.T("err.step", step.N), err)
		}
		step.FillText(&r)
		lang := messages.Current()
		for _, c := range r.Claims {
			v := c.VerdictIn(lang)
			if c.Unstable {
				v = lang.T("verdict.unstable_word")
			}
			fmt.Fprintf(tw, "%d %s\t%s\t%s\t%s\t%s\n", step.N, step.Slug, c.ID, v, c.LinesIn(lang).Measured, r.StartedAt.Format("2006-01-02 15:04"))
		}
	}
	return tw.Flush()
}

// compareFolder is `make compare DIR=<folder>`: a lead's folder of many
// people's results files, one table per step with one row per person and
// run, each claim's verdict in its column.
func compareFolder(dir string) error {
	byStep, err := comparison.ReadFolder(dir)
	if err != nil {
		return err
	}
	progressed, err := folderProgress(dir)
	if err != nil {
		return err
	}
	if len(byStep) == 0 && !progressed {
		return errors.New(messages.T("compare.folder_empty", dir))
	}
	steps := slices.Sorted(maps.Keys(byStep))
	for _, n := range steps {
		entries := byStep[n]
		title := entries[0].Result.Slug
		if n >= 0 {
			title = messages.T("compare.folder_step", n, title)
		}
		fmt.Print(messages.T("compare.folder_head", title, len(entries)))
		header, rows := comparison.StepTable(entries, messages.Current())
		tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, strings.Join(header, "\t"))
		for _, r := range rows {
			fmt.Fprintln(tw, strings.Join(r, "\t"))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	fmt.Print(messages.T("compare.folder_legend", dir))
	return nil
}

// folderProgress prints the progress files (make progress FORMAT=json,
// the CI artifact) under dir: one row per person, the exercises solved.
func folderProgress(dir string) (bool, error) {
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	n := 0
	err := comparison.EachJSON(dir, func(_ string, b []byte) error {
		var p Progress
		if json.Unmarshal(b, &p) != nil || len(p.Steps) == 0 || p.Who == "" {
			return nil // a results file, or something else
		}
		if n == 0 {
			fmt.Print(messages.T("compare.progress_head"))
			fmt.Fprintln(tw, messages.T("compare.progress_header"))
		}
		n++
		var solvedSteps, todo []string
		for _, s := range p.Steps {
			switch s.Exercise {
			case "solved":
				solvedSteps = append(solvedSteps, strconv.Itoa(s.Step))
			case "—":
			default:
				todo = append(todo, strconv.Itoa(s.Step))
			}
		}
		fmt.Fprintf(tw, "%s\t%.12s\t%s\t%s\t%s\n", p.Who, p.Commit, p.GeneratedAt.Format("2006-01-02 15:04"), strings.Join(solvedSteps, " "), strings.Join(todo, " "))
		return nil
	})
	if err != nil {
		return false, err
	}
	return n > 0, tw.Flush()
}
