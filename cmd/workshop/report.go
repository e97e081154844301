package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/peakload/workshop/internal/harness/cli"
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
func runReport(_ context.Context, cfg cli.Config, args []string) error {
	fs := flag.NewFlagSet("report", flag.ExitOnError)
	ref := fs.Bool("ref", os.Getenv("REF") == "1", "draw the reference runs (results/reference) and the slides' figures")
	_ = fs.Parse(args)

	rs, steps, slugs := map[int]*result.Result{}, []int{}, map[int]string{}
	drills := map[int]*result.Result{}
	for _, s := range scenario.All() {
		r, err := report.Load(resultsDir(), s.N, *ref)
		if err != nil {
			return fmt.Errorf("step %d: %w", s.N, err)
		}
		d, err := report.LoadDrill(resultsDir(), s.N, *ref)
		if err != nil {
			return fmt.Errorf("step %d's drill: %w", s.N, err)
		}
		if d != nil {
			drills[s.N] = d
		}
		steps, slugs[s.N] = append(steps, s.N), s.Slug
		if r != nil {
			s.FillSources(r)
			rs[s.N] = r
		}
	}
	var service string // make probe / make audit: a service of the user's
	if !*ref {
		probed, err := report.LoadLatest(resultsDir(), "probe")
		if err != nil {
			return fmt.Errorf("probe: %w", err)
		}
		audited, err := report.LoadLatest(resultsDir(), "audit")
		if err != nil {
			return fmt.Errorf("audit: %w", err)
		}
		service = report.ServiceSections(probed, audited)
	}
	if len(rs) == 0 && service == "" {
		return fmt.Errorf("no results yet: run `make step-N bench` first (or `make report REF=1` for the reference runs)")
	}
	dir := filepath.Join(resultsDir(), "report")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	page := filepath.Join(dir, "index.html")
	body := report.PageWithDrills("peakload — the articles' claims beside our measurements", steps, slugs, rs, drills, *ref)
	body = strings.Replace(body, "</body>", service+"</body>", 1)
	if err := os.WriteFile(page, []byte(body), 0o644); err != nil {
		return err
	}
	fmt.Println("wrote", page, "— open it in a browser (it needs no network)")
	if !*ref {
		return nil
	}
	if err := os.MkdirAll(slideFigures, 0o755); err != nil {
		return err
	}
	var names []string
	var all []*result.Result
	for _, n := range steps {
		if rs[n] != nil {
			all = append(all, rs[n])
		}
	}
	if err := os.WriteFile(filepath.Join(slideFigures, "claims-all.html"), []byte(report.Summary(all)), 0o644); err != nil {
		return err
	}
	names = append(names, "claims-all.html")
	for _, r := range rs {
		for name, body := range report.SlideFiles(r) {
			if err := os.WriteFile(filepath.Join(slideFigures, name), []byte(body), 0o644); err != nil {
				return err
			}
			names = append(names, name)
		}
	}
	sort.Strings(names)
	fmt.Printf("wrote %d slide figures in %s/\n", len(names), slideFigures)
	return nil
}
