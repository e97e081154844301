// Command workshop-dev runs the maintainer's tools, each a package of
// internal/dev named for what it holds: the mutant gate (gate), the docs'
// generated regions and the scaling page (docs), make test (citest),
// test-latency (latencytest), test-busy (busytest), test-originals
// (originalstest), the agenda and the handout. This file only reads the
// configuration and dispatches. The tools live apart from cmd/workshop so
// that a learner's first `make step-1 bench` never compiles them; the
// Makefile builds this command only for the targets that need it (test,
// test-latency, docs, mutants).
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/peakload/workshop/internal/dev/agenda"
	"github.com/peakload/workshop/internal/dev/busytest"
	"github.com/peakload/workshop/internal/dev/citest"
	"github.com/peakload/workshop/internal/dev/docs"
	"github.com/peakload/workshop/internal/dev/gate"
	"github.com/peakload/workshop/internal/dev/handout"
	"github.com/peakload/workshop/internal/dev/latencytest"
	"github.com/peakload/workshop/internal/dev/originalstest"
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
	switch cmd {
	case "mutants":
		err = gate.Run(ctx, cfg, args)
	case "docs":
		err = docs.Run(args)
	case "test":
		err = citest.Run(ctx, cfg)
	case "test-latency":
		err = latencytest.Run(ctx, cfg)
	case "test-originals":
		err = originalstest.Run(ctx, cfg)
	case "agenda":
		err = agenda.Run(ctx, cfg, args)
	case "test-busy":
		err = busytest.Run(ctx, args)
	case "handout":
		err = handout.Run(ctx, cfg, args)
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
