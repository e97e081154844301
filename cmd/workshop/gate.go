package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/peakload/workshop/internal/scenario"
	"github.com/peakload/workshop/internal/stack"
)

// The gate proves each step's check against wrong answers, not only the
// untouched exercise: every steps/NN-slug/testdata/mutants/<name>.go (a
// plausible wrong exercise.go) must make the check FAIL with `--- FAIL`
// lines — no panic, no timeout, which would tell the learner nothing — and
// every testdata/valid/<name>.go (a right answer written another way) must
// PASS. Each file replaces exercise.go through `go test -overlay`, so the
// tree is never touched. The variants compile in parallel; they run one at
// a time, since the checks share the databases.

// gateTimeout bounds one variant's check: a mutant that hangs the check
// fails the gate with "timed out" rather than hanging make test.
const gateTimeout = 90 * time.Second

// variant is one replacement of a step's exercise.go.
type variant struct {
	step scenario.Manifest
	kind string // "untouched", "mutant" or "valid"
	name string
	path string // "" for the untouched exercise
	desc string // the file's first comment line, after "<name>: "
	bin  string
	// overlay is the -overlay file; runs get it in GOFLAGS too, so a check
	// that builds its step as a process (step 6) builds this variant.
	overlay string
	err     error // compile error
}

// wantPass: valid alternatives pass; the untouched exercise and mutants fail.
func (v variant) wantPass() bool { return v.kind == "valid" }

// gateVariants lists the step's untouched exercise, mutants and valid ones.
func gateVariants(step scenario.Manifest) ([]*variant, error) {
	vs := []*variant{{step: step, kind: "untouched", name: "exercise.go", desc: "the TODO as shipped"}}
	for _, kind := range []string{"mutant", "valid"} {
		files, _ := filepath.Glob(filepath.Join(step.Dir(), "testdata", map[string]string{"mutant": "mutants", "valid": "valid"}[kind], "*.go"))
		for _, f := range files {
			desc, err := firstComment(f)
			if err != nil {
				return nil, err
			}
			name := strings.TrimSuffix(filepath.Base(f), ".go")
			vs = append(vs, &variant{step: step, kind: kind, name: name, path: f, desc: strings.TrimPrefix(desc, name+": ")})
		}
	}
	return vs, nil
}

// firstComment is a variant file's first line, which must say what it is:
// "// <name>: <what is wrong with it>" (or, valid: what differs).
func firstComment(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	line, _, _ := strings.Cut(string(b), "\n")
	if !strings.HasPrefix(line, "// ") {
		return "", fmt.Errorf("%s: the first line must be `// <name>: <what is wrong with it>`", path)
	}
	return strings.TrimPrefix(line, "// "), nil
}

// compileVariants builds every variant's test binary in dir, in parallel.
func compileVariants(ctx context.Context, dir string, vs []*variant) {
	sem := make(chan struct{}, max(runtime.NumCPU(), 2))
	var wg sync.WaitGroup
	for i, v := range vs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			v.bin = filepath.Join(dir, fmt.Sprintf("step%02d-%d.test", v.step.N, i))
			// No symbol table nor DWARF: the link, most of a compile here, is a third shorter.
			args := []string{"test", "-c", "-ldflags=-s -w", "-o", v.bin}
			if v.path != "" {
				overlay, err := writeOverlay(dir, v, i)
				if err != nil {
					v.err = err
					return
				}
				v.overlay = overlay
				args = append(args, "-overlay", overlay)
			}
			out, err := exec.CommandContext(ctx, "go", append(args, "./"+v.step.Dir())...).CombinedOutput()
			if err != nil {
				v.err = fmt.Errorf("does not compile: %s", firstLines(string(out), 3))
			}
		}()
	}
	wg.Wait()
}

// writeOverlay writes the `go build -overlay` file swapping v in for exercise.go.
func writeOverlay(dir string, v *variant, i int) (string, error) {
	exercise, err := filepath.Abs(filepath.Join(v.step.Dir(), "exercise.go"))
	if err != nil {
		return "", err
	}
	replacement, err := filepath.Abs(v.path)
	if err != nil {
		return "", err
	}
	b, _ := json.Marshal(map[string]map[string]string{"Replace": {exercise: replacement}})
	path := filepath.Join(dir, fmt.Sprintf("overlay-%02d-%d.json", v.step.N, i))
	return path, os.WriteFile(path, b, 0o644)
}

// outcome is what a learner would read from one run of a check.
type outcome struct {
	passed    bool
	firstFail string // "TestX: check_test.go:33: what went wrong"
	panicked  bool
	crash     string // "concurrent map read and map write": the runtime stopped the binary
	timedOut  bool
}

var failLine = regexp.MustCompile(`^\s*--- FAIL: (\S+)`)

// readOutcome reads a test binary's output: the first failing test, with
// the first line it printed, and whether it panicked or timed out.
func readOutcome(out string, err error) outcome {
	o := outcome{passed: err == nil}
	name, said := "", ""
	for l := range strings.Lines(out) {
		if strings.HasPrefix(l, "panic: test timed out") {
			o.timedOut = true
		} else if strings.HasPrefix(l, "panic:") {
			o.panicked = true
		} else if what, ok := strings.CutPrefix(l, "fatal error: "); ok && o.crash == "" {
			o.crash = strings.TrimSpace(what)
		}
		switch m := failLine.FindStringSubmatch(l); {
		case said != "" && !strings.HasSuffix(said, ":"):
		case m != nil && said == "" && (name == "" || strings.HasPrefix(m[1], name+"/")):
			name = m[1] // the test, then its first failing subtest
		case name != "" && strings.TrimSpace(l) != "":
			// t.Errorf("\n…") puts the message on the line after file:line.
			said = strings.TrimSpace(said + " " + strings.TrimSpace(l))
		}
	}
	o.firstFail = name
	if said != "" {
		o.firstFail += ": " + said
	}
	return o
}

// judge says whether the variant's outcome is the one the gate wants.
func judge(v *variant, o outcome) error {
	switch {
	case v.err != nil:
		return v.err
	case v.wantPass() && !o.passed:
		return fmt.Errorf("a right answer is rejected: %s", cmp.Or(o.firstFail, "the check failed"))
	case v.wantPass():
		return nil
	case o.passed:
		return errors.New("the check PASSES on this wrong answer: the check cannot catch it")
	case o.timedOut:
		return fmt.Errorf("the check timed out (%s) instead of failing with a message", gateTimeout)
	case o.panicked:
		return errors.New("the check panicked instead of failing with a message")
	case o.crash != "":
		return fmt.Errorf("the test binary crashed (fatal error: %s) instead of failing with a message: "+
			"state the answer shares with the check must be read under its lock, or the test isolated (internal/crashtest)", o.crash)
	case o.firstFail == "":
		return errors.New("the check failed without a `--- FAIL` line (build or setup error?)")
	}
	return nil
}

// runVariant runs a compiled check in the step's directory, as go test does.
func runVariant(ctx context.Context, sc stack.Config, v *variant) outcome {
	args := []string{"-test.count=1", "-test.timeout=" + gateTimeout.String()}
	if !v.wantPass() {
		args = append(args, "-test.failfast") // the first failure is all we read
	}
	cmd := exec.CommandContext(ctx, v.bin, args...)
	cmd.Dir = v.step.Dir()
	cmd.Env = append(os.Environ(), append(sc.Endpoints().Env(), "PEAKLOAD_MONGO_BIN="+mongoBin(sc))...)
	if v.overlay != "" {
		cmd.Env = append(cmd.Env, "GOFLAGS=-overlay="+v.overlay)
	}
	out, err := cmd.CombinedOutput()
	return readOutcome(string(out), err)
}

// mongoBin is the embedded FerretDB's binary, absolute: the check runs in
// the step's directory.
func mongoBin(sc stack.Config) string {
	bin, _ := filepath.Abs(filepath.Join(sc.Dir, "bin", "mongo"))
	return bin
}

// gate proves the checks of steps (the services up) and prints one line
// per variant. It returns an error naming every variant that broke it.
func gate(ctx context.Context, sc stack.Config, steps []scenario.Manifest) error {
	tmp, err := os.MkdirTemp("", "peakload-gate-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	var all []*variant
	for _, step := range steps {
		if !step.Exercise {
			continue
		}
		vs, err := gateVariants(step)
		if err != nil {
			return err
		}
		all = append(all, vs...)
	}
	t := time.Now()
	compileVariants(ctx, tmp, all)
	fmt.Fprintf(os.Stderr, "    %d variants compiled in %.1fs\n", len(all), time.Since(t).Seconds())
	var broken []string
	for _, v := range all {
		var o outcome
		if v.err == nil {
			o = runVariant(ctx, sc, v)
		}
		verdict, what := "ok  ", cmp.Or(o.firstFail, "passes")
		if err := judge(v, o); err != nil {
			verdict, what = "FAIL", err.Error()
			broken = append(broken, fmt.Sprintf("step %d %s %s", v.step.N, v.kind, v.name))
		}
		fmt.Fprintf(os.Stderr, "    %s step %d %s %s (%s) → %s\n", verdict, v.step.N, v.kind, v.name, v.desc, what)
	}
	if len(broken) > 0 {
		return fmt.Errorf("the gate is broken by: %s", strings.Join(broken, "; "))
	}
	return nil
}

// runMutants is `make mutants` / `make step-N mutants`: the gate alone,
// with every service up (started and stopped when not already running).
func runMutants(ctx context.Context, args []string) (err error) {
	steps := scenario.Steps()
	if len(args) > 0 {
		step, err := stepFlag("mutants", args)
		if err != nil {
			return err
		}
		steps = []scenario.Manifest{step.Manifest}
	}
	sc := stack.FromEnv()
	started, err := stack.Up(ctx, sc)
	defer func() { err = errors.Join(err, downStarted(sc, started)) }()
	if err != nil {
		return err
	}
	if err := seed(ctx, sc.Endpoints().PostgresURL); err != nil {
		return err
	}
	return gate(ctx, sc, steps)
}

// firstLines keeps the first n non-empty lines of s.
func firstLines(s string, n int) string {
	var out []string
	for l := range strings.Lines(s) {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
			if len(out) == n {
				break
			}
		}
	}
	return strings.Join(out, " | ")
}
