package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"

	"github.com/peakload/workshop/internal/cli"
	"github.com/peakload/workshop/internal/messages"
	"github.com/peakload/workshop/internal/scenario"
)

// runCheck is `make step-N check`: the step's check on the learner's code
// (on the reference with SOLUTION=1) in two passes. First the tests that
// need no service (`go test -short`, stopping at the first failure): a
// wrong answer is usually told in a second, with nothing started. Only when
// they pass are the step's services started, for the tests that need them.
func runCheck(ctx context.Context, cfg cli.Config, args []string) error {
	step, err := cli.StepFlag("check", args)
	if err != nil {
		return err
	}
	err = check(ctx, cfg, step)
	recordCheck(cfg, step.Manifest, err == nil)
	return err
}

func check(ctx context.Context, cfg cli.Config, step scenario.Step) (err error) {
	sc := cfg.Stack
	var started []string
	defer func() { err = errors.Join(err, cli.DownStarted(sc, started)) }()
	return checkWith(ctx, cfg, step, func() error {
		s, uerr := upForStep(ctx, sc, step)
		started = s
		return uerr
	})
}

// checkWith runs the two passes of the check; up brings the services up
// when the second pass needs them (watch starts them once for all its runs).
func checkWith(ctx context.Context, cfg cli.Config, step scenario.Step, up func() error) error {
	pkg := "./" + step.Dir() + "/"
	fmt.Fprint(os.Stderr, messages.T("check.start", step.N, pkg))
	needServices, err := checkShort(ctx, cfg, pkg)
	if err != nil {
		return fmt.Errorf("%w %s", err, messages.T("check.fix_first", step.N))
	}
	if len(needServices) > 0 {
		fmt.Fprint(os.Stderr, messages.T("check.services", len(needServices), strings.Join(needServices, " ")))
		if err := up(); err != nil {
			return err
		}
		err = cli.GoTest(ctx, cfg.Stack, cfg.Solution, "-failfast", "-run", "^("+strings.Join(needServices, "|")+")$", pkg)
		if err != nil {
			return fmt.Errorf("%s (%w)", messages.T("check.failed", step.N), err)
		}
	}
	fmt.Fprint(os.Stderr, messages.T("check.passed", step.N))
	return nil
}

// testEvent is one line of `go test -json` (cmd/test2json).
type testEvent struct {
	Action string
	Test   string
	Output string
}

var shortSkip = regexp.MustCompile(`skipped under -short|needs (PostgreSQL|Redis|MongoDB)|runs processes|starts three servers`)

// checkShort runs pkg's tests under -short and prints what a learner needs:
// the failing test's output (or the build error) and nothing else. It
// returns the top-level tests that skipped for want of services.
func checkShort(ctx context.Context, cfg cli.Config, pkg string) ([]string, error) {
	args := []string{"test", "-count=1", "-short", "-failfast", "-json"}
	if cfg.Solution {
		args = append(args, "-tags", "solution")
	}
	cmd := exec.CommandContext(ctx, "go", append(args, pkg)...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	skipped, failed := readShort(out, os.Stdout)
	werr := cmd.Wait()
	if failed || werr != nil {
		return nil, errors.New(messages.T("check.failed_short"))
	}
	return skipped, nil
}

// readShort prints the output of failing tests (and build output) from a
// go test -json stream, and lists the top-level tests skipped for want of
// services. Passing tests stay quiet, as in a plain go test.
func readShort(r io.Reader, w io.Writer) (skipped []string, failed bool) {
	output := map[string][]string{}
	dec := json.NewDecoder(r)
	for {
		var e testEvent
		if err := dec.Decode(&e); err != nil {
			break
		}
		switch e.Action {
		case "build-output":
			fmt.Fprint(w, e.Output)
		case "output":
			if e.Test == "" {
				if strings.HasPrefix(e.Output, "FAIL") || strings.HasPrefix(e.Output, "panic:") || strings.HasPrefix(e.Output, "ok") {
					fmt.Fprint(w, e.Output)
				}
				continue
			}
			output[e.Test] = append(output[e.Test], e.Output)
		case "fail":
			failed = true
			if e.Test != "" { // a subtest, then its parent
				// As plain go test prints it: the --- FAIL line, then what the test said.
				var head, body []string
				for _, l := range output[e.Test] {
					switch {
					case strings.HasPrefix(strings.TrimSpace(l), "--- FAIL"):
						head = append(head, l)
					case !strings.HasPrefix(strings.TrimSpace(l), "=== "):
						body = append(body, l)
					}
				}
				fmt.Fprint(w, strings.Join(append(head, body...), ""))
			}
		case "skip":
			if e.Test != "" && !strings.Contains(e.Test, "/") && shortSkip.MatchString(strings.Join(output[e.Test], "")) {
				skipped = append(skipped, e.Test)
			}
		}
	}
	return skipped, failed
}
