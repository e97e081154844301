// Package busytest is `make test-busy`: beside a busy loop on one CPU, no
// claim reads the opposite of its verdict on a quiet machine.
package busytest

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/peakload/workshop/internal/dev/latencytest"
	"github.com/peakload/workshop/internal/harness/proc"
	"github.com/peakload/workshop/internal/harness/result"
)

// Run is `make test-busy`: a verdict the measurement cannot
// support is never printed (issue 32). Each step's reference is benched
// (QUICK) as the machine is, then beside a busy loop pinned to one CPU
// (the driver's and the databases' on 2 CPUs, as `taskset -c 0 sh -c
// 'while :; do :; done'`), and no claim may read the opposite of the
// first run: beside the loop, a claim judged on rates is the same,
// UNSTABLE, or not judged (the machine was busy). A claim the first run
// did not judge (the machine was already busy, or unstable) has nothing
// to be the opposite of, and is only shown.
func Run(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("test-busy", flag.ContinueOnError)
	steps := fs.String("steps", "0,5", "the steps to bench, comma-separated")
	cpu := fs.Int("cpu", 0, "the CPU the busy loop is pinned to")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if runtime.GOOS != "linux" {
		return errors.New("test-busy needs Linux: elsewhere a window's other processes are not measured")
	}
	tmp, err := os.MkdirTemp("", "peakload-busy-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	var flips []string
	for _, s := range strings.Split(*steps, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			return fmt.Errorf("-steps %s: %w", *steps, err)
		}
		fmt.Fprintf(os.Stderr, "\n=== step %d: as the machine is, then beside a busy loop on CPU %d\n", n, *cpu)
		quiet, err := latencytest.BenchResult(ctx, filepath.Join(tmp, "quiet"), n)
		if err != nil {
			return err
		}
		busy, err := besideBusyLoop(*cpu, func() (*result.Result, error) { return latencytest.BenchResult(ctx, filepath.Join(tmp, "busy"), n) })
		if err != nil {
			return err
		}
		latencytest.PrintVerdicts(quiet, busy, "as it is", "busy loop")
		flips = append(flips, opposite(quiet, busy)...)
	}
	if len(flips) > 0 {
		return fmt.Errorf("beside a busy loop, the opposite verdict: %s", strings.Join(flips, "; "))
	}
	fmt.Println("\nno claim read the opposite beside the busy loop")
	return nil
}

// besideBusyLoop runs f while a shell spins on cpu, and stops the shell.
func besideBusyLoop(cpu int, f func() (*result.Result, error)) (*result.Result, error) {
	hog := exec.Command("sh", "-c", "while :; do :; done")
	if err := hog.Start(); err != nil {
		return nil, fmt.Errorf("start the busy loop: %w", err)
	}
	defer func() { _ = hog.Process.Kill(); _ = hog.Wait() }()
	if err := proc.Pin(hog.Process.Pid, []int{cpu}); err != nil {
		return nil, fmt.Errorf("pin the busy loop to CPU %d: %w", cpu, err)
	}
	return f()
}

// opposite lists the claims both runs judged, neither unstable, whose
// verdicts differ.
func opposite(quiet, busy *result.Result) []string {
	var out []string
	for _, c := range quiet.Claims {
		d := latencytest.ClaimOf(busy, c.ID)
		if c.Reproduced == nil || d.Reproduced == nil || c.Unstable || d.Unstable {
			continue
		}
		if *c.Reproduced != *d.Reproduced {
			out = append(out, fmt.Sprintf("%s: %s as the machine was, %s beside the loop", c.ID, c.Verdict(), d.Verdict()))
		}
	}
	return out
}
