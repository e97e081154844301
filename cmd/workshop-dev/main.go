// Command workshop-dev holds the maintainer's tools: the mutant gate, the
// docs' generated regions (and the scaling page), test-latency and `make
// test`. They live apart from cmd/workshop so that a learner's first
// `make step-1 bench` never compiles them; the Makefile builds this command
// only for the targets that need it (test, test-latency, docs, mutants).
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/config"
)

const usage = `usage: workshop-dev <command> [flags]

  mutants [-step N] prove the checks: each fails on every mutant, passes on every valid one
  docs [-check]     write the reference runs' figures into the READMEs' marked regions
  test              everything CI runs
  test-latency      steps 1–5 give the same verdicts with +0.2 ms per database round trip
  test-originals    the sources' own stacks (ORIGINAL=1): every original row measured, their tests pass
  agenda [-step N]  time every step's check and bench on the reference into docs/timings.json (the guide's durations)
  test-busy [-steps 0,5] [-cpu 0]  beside a busy loop on one CPU, no claim reads the opposite verdict
  handout           print every slide deck to PDF (results/handout/; needs Chromium); -lang vi: the Vietnamese decks

The learner's commands are in workshop (.workshop/bin/workshop), which test
and test-latency run from beside this binary.
`

// workshopBin is the learner's command, which test and test-latency run
// (`workshop bench`, `workshop latency-proxy`): the one beside this binary,
// as the Makefile builds both into .workshop/bin/, else that directory's
// (with `go run ./cmd/workshop-dev` from the repository's root).
func workshopBin() string {
	if self, err := os.Executable(); err == nil {
		if bin := filepath.Join(filepath.Dir(self), "workshop"); isFile(bin) {
			return bin
		}
	}
	return filepath.Join(".workshop", "bin", "workshop")
}

func isFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}

// resultsDir is where results files are read and written (PEAKLOAD_RESULTS,
// else results/, from the one parse): main sets it for the tools that have
// no configuration of their own.
var resultsDir = "results"

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cmd, args := os.Args[1], os.Args[2:]
	cfg, err := config.FromEnv() // the one reading of the environment, as in the learner's command
	if err != nil {
		fmt.Fprintln(os.Stderr, "workshop-dev:", err)
		os.Exit(2)
	}
	messages.Use(cfg.Lang)
	resultsDir = cfg.ResultsDir
	switch cmd {
	case "mutants":
		err = runMutants(ctx, cfg, args)
	case "docs":
		err = runDocs(args)
	case "test":
		err = runTest(ctx, cfg)
	case "test-latency":
		err = runTestLatency(ctx, cfg)
	case "test-originals":
		err = runTestOriginals(ctx, cfg)
	case "agenda":
		err = runAgenda(ctx, cfg, args)
	case "test-busy":
		err = runTestBusy(ctx, args)
	case "handout":
		err = runHandout(ctx, cfg, args)
	case "help", "-h", "--help":
		fmt.Print(usage)
	default:
		err = fmt.Errorf("unknown command %q\n%s", cmd, usage)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "workshop-dev:", err)
		os.Exit(1)
	}
}
