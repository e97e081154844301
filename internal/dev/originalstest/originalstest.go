// Package originalstest is `make test-originals`: the sources' own stacks
// (ORIGINAL=1) benched, every original row measured, and their
// TestOriginal… tests run, none skipped.
package originalstest

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/peakload/workshop/internal/dev/phases"
	"github.com/peakload/workshop/internal/dev/quickbench"
	"github.com/peakload/workshop/internal/dev/workshopbin"
	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/harness/config"
	"github.com/peakload/workshop/internal/harness/load"
	"github.com/peakload/workshop/internal/harness/original"
	"github.com/peakload/workshop/internal/harness/result"
	"github.com/peakload/workshop/internal/harness/scenario"
	"github.com/peakload/workshop/internal/harness/stack"
)

// originalTestPrefix names the originals' Go tests: each starts a server of
// originals/ against the real services and asserts its routes by behaviour
// and by counters read at the services. They live beside the rows they
// test (any package); this finds them by name.
const originalTestPrefix = "TestOriginal"

// Run is `make test-originals`: the sources' own stacks
// (ORIGINAL=1) run here, as CI runs them. For every step whose entry
// declares originals (course.Step.Originals), a QUICK bench of the
// references with ORIGINAL=1 must measure each original's row — none
// skipped, none with an error — and every TestOriginal… test must pass,
// none skipped. It fails, rather than skips, when Node.js or the packages
// are missing: a green run means the originals ran.
func Run(ctx context.Context, cfg config.Config) (err error) {
	root, err := original.Root()
	if err != nil {
		return err
	}
	if err := originalsInstalled(root); err != nil {
		return err
	}
	sc := cfg.Stack
	started, err := stack.UpSeeded(ctx, sc)
	defer func() { err = errors.Join(err, stack.DownStarted(sc, started)) }()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "peakload-originals-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	var ph phases.Tally
	p := params.Load()
	for _, s := range scenario.All() {
		if len(s.Originals()) == 0 {
			continue
		}
		name := fmt.Sprintf("QUICK ORIGINAL=1 bench of step %d (%s)", s.N, strings.Join(s.Originals(), ", "))
		ph.Run(name, func() error {
			rows := s.OriginalRows(p)
			if len(rows) == 0 { // nothing to measure: say so without a bench of the Go rows alone
				return originalsMeasured(s, rows, &result.Result{})
			}
			r, err := originalBench(ctx, filepath.Join(tmp, fmt.Sprint(s.N)), s.N)
			if err != nil {
				return err
			}
			return originalsMeasured(s, rows, r)
		})
	}
	ph.Run("go test -run '^"+originalTestPrefix+"' (the originals' tests, real services)", func() error {
		return runOriginalTests(ctx, sc, root)
	})
	return ph.Done()
}

// originalsInstalled fails, with the command that fixes it, when Node.js,
// the originals' packages or Bun are not here: `make test-originals` must
// not pass by skipping what it exists to run.
func originalsInstalled(root string) error {
	if _, err := original.NodeBinary(); err != nil {
		return err
	}
	if _, err := original.BunBinary(root); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(root, original.Dir, "node_modules")); err != nil {
		return fmt.Errorf("%w: no %s/node_modules: run `make prefetch-originals`", original.ErrMissing, original.Dir)
	}
	return nil
}

// originalBench runs step n's QUICK bench of the references with
// ORIGINAL=1 into dir, and reads its results file.
func originalBench(ctx context.Context, dir string, n int) (*result.Result, error) {
	cmd := exec.CommandContext(ctx, workshopbin.Path(), "bench", "-step", fmt.Sprint(n))
	cmd.Env = append(append(os.Environ(), quickbench.Env...), "QUICK=1", "DURATION=", "ORIGINAL=1", "PEAKLOAD_RESULTS="+dir)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("bench step %d with ORIGINAL=1: %w", n, err)
	}
	r, err := result.ReadFile(filepath.Join(dir, fmt.Sprintf("step-%d", n), "latest.json"))
	if err != nil {
		return nil, fmt.Errorf("results file: %w", err)
	}
	return r, nil
}

// originalsMeasured is the assertion behind each bench of test-originals:
// every stack the step declares has rows, every such row was measured
// (not skipped) with requests and no error, the run records the runtimes,
// and the Go rows pass make test's own check.
func originalsMeasured(s scenario.Step, rows []load.Variant, r *result.Result) error {
	var errs []error
	for _, stack := range s.Originals() {
		if !slices.ContainsFunc(rows, func(v load.Variant) bool { return strings.HasPrefix(string(v.Name), stack+"-") }) {
			errs = append(errs, fmt.Errorf("step %d declares %s (internal/harness/course/original.go) but its bench adds no %s-… row with ORIGINAL=1 (internal/harness/scenario/step%02d.go)", s.N, stack, stack, s.N))
		}
	}
	for _, v := range rows {
		x := r.Find(v.Name)
		switch {
		case x == nil:
			errs = append(errs, fmt.Errorf("step %d: %s (%s) was not measured%s", s.N, v.Name, v.Original, skipNote(r, v.Original.String())))
		case x.Requests == 0 || x.Errors != 0:
			errs = append(errs, fmt.Errorf("step %d %s: %d requests, %d errors (first: %s)", s.N, v.Name, x.Requests, x.Errors, x.FirstError))
		}
	}
	if len(rows) > 0 { // else no bench ran: the missing rows say it all
		if len(r.Machine.Runtimes) == 0 {
			errs = append(errs, fmt.Errorf("step %d: the results file records no runtime (agenda.Machine.Runtimes) for an ORIGINAL=1 run", s.N))
		}
		errs = append(errs, quickbench.Verify(r))
	}
	return errors.Join(errs...)
}

// skipNote is the bench's note on why program's rows were skipped, if any.
func skipNote(r *result.Result, program string) string {
	for _, n := range r.Notes {
		if strings.Contains(n, program) {
			return ": " + n
		}
	}
	return ""
}

// runOriginalTests runs every TestOriginal… test of the repository with
// the services, and fails on a failure, a skip, or none found.
func runOriginalTests(ctx context.Context, sc stack.Config, root string) error {
	pkgs, err := originalTestPackages(root)
	if err != nil {
		return err
	}
	if len(pkgs) == 0 {
		return fmt.Errorf("no %s… test in the repository: each original needs one (CONTRIBUTING.md, \"Adding an original\")", originalTestPrefix)
	}
	args := append([]string{"test", "-count=1", "-p", "1", "-tags", "solution", "-json", "-run", "^" + originalTestPrefix}, pkgs...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir, cmd.Env, cmd.Stderr = root, stack.TestEnv(sc), os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	verdicts := testVerdicts(bufio.NewScanner(out), os.Stderr)
	runErr := cmd.Wait()
	return errors.Join(verdicts, runErr)
}

// testVerdicts reads `go test -json` and prints one line per top-level
// test, with the output of those that failed or skipped — their subtests'
// too, where a table test's message is; it returns an error naming them,
// or when no test ran.
func testVerdicts(sc *bufio.Scanner, w io.Writer) error {
	type event struct{ Action, Package, Test, Output string }
	output := map[string][]string{}
	var ran int
	var bad []string
	for sc.Scan() {
		var e event
		if json.Unmarshal(sc.Bytes(), &e) != nil || e.Test == "" {
			continue
		}
		top, _, sub := strings.Cut(e.Test, "/")
		key := e.Package + "." + top
		if e.Action == "output" {
			output[key] = append(output[key], e.Output)
		}
		if sub {
			continue
		}
		switch e.Action {
		case "pass", "fail", "skip":
			ran++
			fmt.Fprintf(w, "    %-4s %s\n", e.Action, key)
			if e.Action != "pass" {
				bad = append(bad, e.Action+" "+key)
				fmt.Fprint(w, indent(strings.Join(output[key], "")))
			}
		}
	}
	switch {
	case len(bad) > 0:
		return fmt.Errorf("%s (a skip fails here: the originals must run on this machine)", strings.Join(bad, "; "))
	case ran == 0:
		return fmt.Errorf("no %s… test ran", originalTestPrefix)
	}
	return nil
}

func indent(s string) string {
	return "        " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n        ") + "\n"
}

// originalTestPackages are the packages ("./internal/harness/scenario") with a
// _test.go file declaring a TestOriginal… function.
func originalTestPackages(root string) ([]string, error) {
	var pkgs []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "node_modules" || n == "testdata" || n == original.Dir) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		if pkg := "./" + filepath.ToSlash(rel) + "/"; strings.Contains(string(b), "\nfunc "+originalTestPrefix) && !slices.Contains(pkgs, pkg) {
			pkgs = append(pkgs, pkg)
		}
		return nil
	})
	return pkgs, err
}
