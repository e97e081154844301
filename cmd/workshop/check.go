package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/config"
	"github.com/peakload/workshop/internal/harness/scenario"
	"github.com/peakload/workshop/internal/harness/stack"
	"github.com/peakload/workshop/internal/harness/stepflag"
)

// runCheck is `make step-N check`: the step's check on the learner's code
// (on the reference with SOLUTION=1) in two passes. First the tests that
// need no service (`go test -short`, stopping at the first failure): a
// wrong answer is usually told in a second, with nothing started. Only when
// they pass are the step's services started, for the tests that need them.
func runCheck(ctx context.Context, cfg config.Config, args []string) error {
	step, err := stepflag.Parse("check", args)
	if err != nil {
		return err
	}
	err = check(ctx, cfg, step)
	if !errors.As(err, new(noVerdict)) { // a stall says nothing of the code
		recordCheck(cfg, step.Manifest, err == nil)
	}
	return err
}

// noVerdict is a check that ended on a stalled machine, not on the code:
// the CLI exits 3 for it (1 is a failed check), so a script can run it again.
type noVerdict string

func (e noVerdict) Error() string { return string(e) }

func check(ctx context.Context, cfg config.Config, step scenario.Step) (err error) {
	sc := cfg.Stack
	var started []string
	defer func() { err = errors.Join(err, stack.DownStarted(sc, started)) }()
	return checkWith(ctx, cfg, step, func() error {
		s, uerr := upForStep(ctx, sc, step)
		started = s
		return uerr
	})
}

// checkWith runs the two passes of the check; up brings the services up
// when the second pass needs them (watch starts them once for all its runs).
func checkWith(ctx context.Context, cfg config.Config, step scenario.Step, up func() error) error {
	_, err := checkPasses(ctx, cfg, step, up, os.Stderr)
	return err
}

// checkPasses runs the check's two passes, printing to w what a learner
// reads, and returns what became of each top-level test: "pass", "fail" or
// "skip". Which tests need the services is the step's manifest entry
// (course.Step.ServiceTests), not what a test says when it skips: the
// first pass runs every other test under -short with nothing started, the
// second exactly those, so together they run every test of the package.
func checkPasses(ctx context.Context, cfg config.Config, step scenario.Step, up func() error, w io.Writer) (map[string]string, error) {
	pkg := "./" + step.Dir() + "/"
	services := step.ServiceTests
	fmt.Fprint(w, messages.T("check.start", step.N, pkg))
	first := []string{"-short"}
	if len(services) > 0 {
		first = append(first, "-skip", step.ServiceTestsPattern())
	}
	ran, err := checkPass(ctx, cfg, pkg, first, nil, w)
	if errors.Is(err, errStalled) {
		return ran, noVerdict(messages.T("check.no_verdict", step.N))
	}
	if err != nil {
		return ran, fmt.Errorf("%s %s", messages.T("check.failed_short"), messages.T("check.fix_first", step.N))
	}
	if len(services) > 0 {
		fmt.Fprint(w, servicesLine(services))
		if err := up(); err != nil {
			return ran, err
		}
		sc := cfg.Stack
		env := append(sc.Endpoints().Env(), "PEAKLOAD_MONGO_BIN="+filepath.Join(sc.Dir, "bin", "mongo"))
		second, err := checkPass(ctx, cfg, pkg, []string{"-run", step.ServiceTestsPattern()}, env, w)
		maps.Copy(ran, second)
		if errors.Is(err, errStalled) {
			return ran, noVerdict(messages.T("check.no_verdict", step.N))
		}
		if err != nil {
			return ran, errors.New(messages.T("check.failed", step.N))
		}
	}
	fmt.Fprint(w, messages.T("check.passed", step.N))
	return ran, nil
}

// testEvent is one line of `go test -json` (cmd/test2json).
type testEvent struct {
	Action string
	Test   string
	Output string
}

// checkPass runs pkg's tests with args (stopping at the first failure) and
// prints what a learner needs: the failing test's output, or the build
// error, and any test that skipped, with why. env is added to the tests'.
func checkPass(ctx context.Context, cfg config.Config, pkg string, args, env []string, w io.Writer) (map[string]string, error) {
	goArgs := []string{"test", "-count=1", "-failfast", "-json"}
	if cfg.Solution {
		goArgs = append(goArgs, "-tags", "solution")
	}
	cmd := exec.CommandContext(ctx, "go", append(append(goArgs, args...), pkg)...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = w
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	ran, failed, stalled := readTests(out, w)
	werr := cmd.Wait()
	if stalled {
		return ran, errors.Join(errStalled, werr)
	}
	if failed || werr != nil {
		return ran, errors.Join(errors.New("failed"), werr)
	}
	return ran, nil
}

// errStalled is a pass in which a test gave up waiting on the machine
// (bubble.Stalled): no verdict on the learner's code either way.
var errStalled = errors.New("stalled: no verdict")

// readTests prints the output of failing tests (and build output) from a
// go test -json stream and returns what became of each top-level test.
// Passing tests stay quiet, as in a plain go test; a skip is said, since a
// check's test that skips has not checked anything. A test the binary
// never finished (a watchdog or a crash ended the process: go test reports
// only the package as failed) is printed and counted as failed. stalled is
// whether a test logged messages.StallMark (the line itself is not printed).
func readTests(r io.Reader, w io.Writer) (ran map[string]string, failed, stalled bool) {
	ran = map[string]string{}
	output := map[string][]string{}
	var running []string // started, not yet ended, in order
	var last []string    // the package's own lines: ok, FAIL, panic
	dec := json.NewDecoder(r)
	for {
		var e testEvent
		if err := dec.Decode(&e); err != nil {
			break
		}
		switch e.Action {
		case "build-output":
			fmt.Fprint(w, e.Output)
		case "run":
			running = append(running, e.Test)
		case "output":
			if e.Test == "" {
				if strings.HasPrefix(e.Output, "FAIL") || strings.HasPrefix(e.Output, "panic:") || strings.HasPrefix(e.Output, "ok") {
					last = append(last, e.Output) // after the tests it ended unfinished
				}
				continue
			}
			if strings.Contains(e.Output, messages.StallMark) {
				stalled = true
				continue
			}
			output[e.Test] = append(output[e.Test], e.Output)
		case "pass", "fail", "skip":
			if e.Test == "" {
				failed = failed || e.Action == "fail"
				continue
			}
			running = slices.DeleteFunc(running, func(n string) bool { return n == e.Test })
			if !strings.Contains(e.Test, "/") {
				ran[e.Test] = e.Action
			}
			switch {
			case e.Action == "fail": // a subtest, then its parent
				failed = true
				fmt.Fprint(w, failureText(output[e.Test]))
			case e.Action == "skip" && !strings.Contains(e.Test, "/"):
				fmt.Fprint(w, messages.T("check.skipped", e.Test, skipReason(output[e.Test])))
			}
		}
	}
	for _, name := range running {
		failed = true
		if !strings.Contains(name, "/") {
			ran[name] = "fail"
			fmt.Fprint(w, messages.T("check.unfinished", name))
			fmt.Fprint(w, failureText(output[name]))
		}
	}
	fmt.Fprint(w, strings.Join(last, ""))
	return ran, failed, stalled
}

// failureText is a failed test's output as plain go test prints it: the
// --- FAIL line, then what the test said.
func failureText(lines []string) string {
	var head, body []string
	for _, l := range lines {
		switch t := strings.TrimSpace(l); {
		case strings.HasPrefix(t, "--- FAIL"):
			head = append(head, l)
		case !strings.HasPrefix(t, "=== "):
			body = append(body, l)
		}
	}
	return strings.Join(append(head, body...), "")
}

// skipReason is what a skipped test said, on one line.
func skipReason(lines []string) string {
	var said []string
	for _, l := range lines {
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "=== ") && !strings.HasPrefix(t, "--- SKIP") {
			said = append(said, t)
		}
	}
	return strings.Join(said, " ")
}

// servicesLine announces the second pass: "the one that needs", "the 3 that need".
func servicesLine(tests []string) string {
	if len(tests) == 1 {
		return messages.T("check.services_one", tests[0])
	}
	return messages.T("check.services", len(tests), strings.Join(tests, " "))
}
