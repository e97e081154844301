// Package citest is `make test`, what CI runs: vet, every test against
// real services, the gate, and a QUICK bench of every step.
package citest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/peakload/workshop/internal/dev/gate"
	"github.com/peakload/workshop/internal/dev/phases"
	"github.com/peakload/workshop/internal/dev/quickbench"
	"github.com/peakload/workshop/internal/harness/config"
	"github.com/peakload/workshop/internal/harness/scenario"
	"github.com/peakload/workshop/internal/harness/stack"
)

// Run is `make test`, what CI runs: vet; every test against real
// services it starts and stops; every step's check on the reference, and
// proof that each untouched exercise fails it; QUICK benches whose results
// are then verified. It ends with "N passed, M failed".
func Run(ctx context.Context, cfg config.Config) (err error) {
	sc := cfg.Stack
	var ph phases.Tally
	phase := ph.Run
	phase("gofmt -l .", func() error { return gofmtClean(ctx) })
	phase("go vet ./...", func() error { return command(ctx, "go", "vet", "./...") })
	phase("go vet -tags solution ./...", func() error { return command(ctx, "go", "vet", "-tags", "solution", "./...") })
	// Step 3's matcher is a grammar: every go test runs the fuzz seeds; this
	// searches past them, for a bounded time, comparing the reference with
	// the check's RFC 9110 model (a failing input lands in testdata/fuzz/).
	phase("fuzz step 3's If-None-Match reader against RFC 9110 (10 s)", func() error {
		return command(ctx, "go", "test", "-tags", "solution", "-run", "^$",
			"-fuzz", "^FuzzIfNoneMatchAgreesWithRFC9110$", "-fuzztime", "10s", "./steps/03-etag/")
	})
	// The gate's compiles and -short passes need no service: begun now,
	// they use the CPU that starting, seeding and the tests with services
	// leave idle while they wait on the databases. Its service passes wait
	// for its phase, so no check runs beside those tests.
	g, gerr := gate.Start(ctx, sc, scenario.Steps())
	if gerr == nil {
		defer g.Stop()
	}

	started, err := stack.UpSeeded(ctx, sc)
	defer func() { err = errors.Join(err, stack.DownStarted(sc, started)) }()
	if err != nil {
		return err
	}
	// Every package, the steps' checks on the references; one package at a
	// time, since the checks share the databases. The steps' packages run
	// inside cmd/workshop's TestEveryStepsCheckRunsEveryTest, through the
	// two passes of make step-N check, which it proves run every test:
	// listed here too, they would run twice.
	phase("go test -tags solution ./... (real services; the steps' tests through their checks)", func() error {
		pkgs, err := packagesBut(ctx, "/steps/")
		if err != nil {
			return err
		}
		// cmd/workshop's test runs every step's check (~5 min quiet):
		// go test's default 10 min is too tight on a loaded machine.
		return stack.GoTest(ctx, sc, true, append([]string{"-p", "1", "-timeout", "40m"}, pkgs...)...)
	})
	// Every check proven: it fails on the untouched exercise and on every
	// mutant (a wrong answer a learner writes), with a message; it passes on
	// every valid alternative (a right answer written another way).
	phase("the gate: checks fail on exercises and mutants, pass on valid alternatives", func() error {
		if gerr != nil {
			return gerr
		}
		return g.Finish()
	})
	// A smoke run of every bench (the references for steps with an
	// exercise): the scenario runs end to end with 0 errors and its results
	// file holds the claims. Throughput is never asserted.
	for _, step := range scenario.All() {
		phase(fmt.Sprintf("QUICK bench of step %d", step.N), func() error { return quickbench.Verified(ctx, sc, step, cfg.ResultsDir) })
	}
	return ph.Done()
}

// gofmtClean fails naming the files gofmt would change (testdata's mutants
// included: a kept wrong answer is still Go a learner could have written).
func gofmtClean(ctx context.Context) error {
	out, err := exec.CommandContext(ctx, "gofmt", "-l", ".").Output()
	if err != nil {
		return fmt.Errorf("gofmt: %w", err)
	}
	if files := strings.Fields(string(out)); len(files) > 0 {
		return fmt.Errorf("not gofmt'ed (run gofmt -w): %s", strings.Join(files, " "))
	}
	return nil
}

// packagesBut lists the module's packages whose import path does not
// contain part.
func packagesBut(ctx context.Context, part string) ([]string, error) {
	out, err := exec.CommandContext(ctx, "go", "list", "-tags", "solution", "./...").Output()
	if err != nil {
		return nil, fmt.Errorf("go list ./...: %w", err)
	}
	var pkgs []string
	for l := range strings.Lines(string(out)) {
		if l = strings.TrimSpace(l); l != "" && !strings.Contains(l, part) {
			pkgs = append(pkgs, l)
		}
	}
	return pkgs, nil
}

func command(ctx context.Context, name string, args ...string) error {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	return cmd.Run()
}
