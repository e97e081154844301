package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/config"
	"github.com/peakload/workshop/internal/harness/report"
	"github.com/peakload/workshop/internal/harness/result"
	"github.com/peakload/workshop/internal/harness/scenario"
)

// slideFigures is where the decks find the figures drawn from the
// reference runs (committed, so `make slides` works from a fresh clone).
const slideFigures = "slides/img/generated"

// runReport writes results/report/index.html — one self-contained page of
// every step's charts and claims — from the latest runs, or with -ref (make
// report REF=1) from results/reference, in which case it also redraws the
// figures the slide decks include.
func runReport(_ context.Context, cfg config.Config, args []string) error {
	fs := flag.NewFlagSet("report", flag.ExitOnError)
	ref := fs.Bool("ref", false, "draw the reference runs (results/reference) and the slides' figures")
	if err := setFromVars(fs, varFlag{"ref", "REF", cfg.Verbs.Ref}); err != nil {
		return err
	}
	_ = fs.Parse(args)

	runs, err := loadStepRuns(*ref)
	if err != nil {
		return err
	}
	var service string // make probe / make audit: a service of the user's
	if !*ref {
		if service, err = loadServiceSections(); err != nil {
			return err
		}
	}
	if len(runs.rs) == 0 && service == "" {
		return errors.New(messages.T("report.none"))
	}
	dir := filepath.Join(resultsDir(), "report")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	page := filepath.Join(dir, "index.html")
	body := report.PageWithDrills(messages.T("report.title"), runs.steps, runs.slugs, runs.rs, runs.drills, *ref)
	body = strings.Replace(body, "</body>", service+"</body>", 1)
	if err := os.WriteFile(page, []byte(body), 0o644); err != nil {
		return err
	}
	fmt.Print(messages.T("report.wrote", page))
	if !*ref {
		return nil
	}
	return writeSlideFigures(runs)
}

// stepRuns are what the report draws of each step: its latest run (or
// reference run) and drill, by step number, in the manifest's order.
type stepRuns struct {
	steps  []int
	slugs  map[int]string
	rs     map[int]*result.Result // steps with no run yet have no entry
	drills map[int]*result.Result
}

// loadStepRuns reads every step's run and drill, the reference ones when ref.
func loadStepRuns(ref bool) (stepRuns, error) {
	runs := stepRuns{slugs: map[int]string{}, rs: map[int]*result.Result{}, drills: map[int]*result.Result{}}
	for _, s := range scenario.All() {
		r, err := report.Load(resultsDir(), s.N, ref)
		if err != nil {
			return runs, fmt.Errorf("step %d: %w", s.N, err)
		}
		d, err := report.LoadDrill(resultsDir(), s.N, ref)
		if err != nil {
			return runs, fmt.Errorf("step %d's drill: %w", s.N, err)
		}
		if d != nil {
			runs.drills[s.N] = d
		}
		runs.steps, runs.slugs[s.N] = append(runs.steps, s.N), s.Slug
		if r != nil {
			s.FillSources(r)
			s.FillText(r) // the claims' Vietnamese lines, which the JSON does not keep
			runs.rs[s.N] = r
		}
	}
	return runs, nil
}

// loadServiceSections draws the latest `make probe` and `make audit` of a
// service of the user's ("" when there are none).
func loadServiceSections() (string, error) {
	probed, err := report.LoadLatest(resultsDir(), "probe")
	if err != nil {
		return "", fmt.Errorf("probe: %w", err)
	}
	audited, err := report.LoadLatest(resultsDir(), "audit")
	if err != nil {
		return "", fmt.Errorf("audit: %w", err)
	}
	return report.ServiceSections(probed, audited), nil
}

// writeSlideFigures redraws the figures the slide decks include from the
// reference runs: every claim in one table, then each step's own.
func writeSlideFigures(runs stepRuns) error {
	if err := os.MkdirAll(slideFigures, 0o755); err != nil {
		return err
	}
	var names []string
	var all []*result.Result
	for _, n := range runs.steps {
		if runs.rs[n] != nil {
			all = append(all, runs.rs[n])
		}
	}
	if err := os.WriteFile(filepath.Join(slideFigures, "claims-all.html"), []byte(report.Summary(all)), 0o644); err != nil {
		return err
	}
	names = append(names, "claims-all.html")
	for _, r := range runs.rs {
		for name, body := range report.SlideFiles(r) {
			if err := os.WriteFile(filepath.Join(slideFigures, name), []byte(body), 0o644); err != nil {
				return err
			}
			names = append(names, name)
		}
	}
	sort.Strings(names)
	fmt.Print(messages.T("report.slides", len(names), slideFigures))
	return nil
}
