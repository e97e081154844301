package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/peakload/workshop/internal/catalog"
	"github.com/peakload/workshop/internal/scenario"
	"github.com/peakload/workshop/internal/stack"
	"github.com/peakload/workshop/k6"
)

func stepFlag(name string, args []string) (scenario.Step, error) {
	fs := flag.NewFlagSet(name, flag.ExitOnError)
	n := fs.Int("step", -1, "step number")
	_ = fs.Parse(args)
	return scenario.Get(*n)
}

// runStep is `make step-N`: the lesson's opening, then its check.
func runStep(ctx context.Context, args []string) error {
	step, err := stepFlag("step", args)
	if err != nil {
		return err
	}
	f, err := os.Open(filepath.Join(step.Dir(), "README.md"))
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	headings := 0
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "## ") {
			if headings++; headings > 1 {
				break
			}
		}
		fmt.Println(sc.Text())
	}
	fmt.Printf("… the whole lesson: %s/README.md\n\n", step.Dir())
	fmt.Printf("commands: make step-%[1]d check | make step-%[1]d bench | make step-%[1]d run", step.N)
	if hasExercise(step) {
		fmt.Printf(" | make step-%[1]d hint | make step-%[1]d diff", step.N)
	}
	fmt.Print("\n\n")
	return runCheck(ctx, args)
}

// runCheck is `make step-N check`: the step's test on the learner's code,
// or on the reference with SOLUTION=1, with the services it needs.
func runCheck(ctx context.Context, args []string) (err error) {
	step, err := stepFlag("check", args)
	if err != nil {
		return err
	}
	sc := stack.FromEnv()
	started, err := upForStep(ctx, sc, step)
	defer func() { err = joinErr(err, downStarted(sc, started)) }()
	if err != nil {
		return err
	}
	return goTest(ctx, sc, solution(), "./"+step.Dir()+"/")
}

func solution() bool { s := os.Getenv("SOLUTION"); return s != "" && s != "0" }

// goTest runs `go test` with the stack's endpoints in the environment.
func goTest(ctx context.Context, sc stack.Config, withSolution bool, pkgs ...string) error {
	args := []string{"test", "-count=1"}
	if withSolution {
		args = append(args, "-tags", "solution")
	}
	cmd := exec.CommandContext(ctx, "go", append(args, pkgs...)...)
	cmd.Env = append(append(os.Environ(), sc.Endpoints().Env()...), "PEAKLOAD_WORKSHOP_BIN="+filepath.Join(sc.Dir, "bin", "workshop"))
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	return cmd.Run()
}

// upForStep starts the step's services and seeds the catalogue if it reads it.
func upForStep(ctx context.Context, sc stack.Config, step scenario.Step) ([]string, error) {
	started, err := stack.Up(ctx, sc, step.Services...)
	if err != nil || !needsPostgres(step.Services) {
		return started, err
	}
	return started, seed(ctx, sc.Endpoints().PostgresURL)
}

func needsPostgres(services []string) bool {
	for _, s := range services {
		if s == stack.Postgres {
			return true
		}
	}
	return false
}

func downStarted(sc stack.Config, started []string) error {
	if len(started) == 0 {
		return nil
	}
	return stack.Down(sc, started...)
}

// runServe is `make step-N run`: the step server in the foreground on
// 127.0.0.1:8080, with its services and (for the read path) the worker.
func runServe(ctx context.Context, args []string) (err error) {
	step, err := stepFlag("run", args)
	if err != nil {
		return err
	}
	sc := stack.FromEnv()
	started, err := upForStep(ctx, sc, step)
	defer func() { err = joinErr(err, downStarted(sc, started)) }()
	if err != nil {
		return err
	}
	bin, err := buildStep(ctx, sc, step)
	if err != nil {
		return err
	}
	if step.Worker {
		pool, err := pgxpool.New(ctx, sc.Endpoints().PostgresURL)
		if err != nil {
			return err
		}
		defer pool.Close()
		p := k6.Load()
		skew := scenario.Env{Params: p}.Skew()
		go catalog.Worker{Pool: pool, IDs: skew.HotIDs(), Interval: p.Scaled(p.Clock.ChangeS)}.Run(ctx)
		fmt.Fprintf(os.Stderr, "worker: updating the live stats of %d hot items every %s\n", len(skew.HotIDs()), p.Scaled(p.Clock.ChangeS))
	}
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), sc.Endpoints().Env()...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "Ctrl-C stops the server (graceful) and the services this command started\n")
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		_ = cmd.Process.Signal(syscall.SIGTERM)
		return <-done
	}
}

// hasExercise: a step with an exercise has hints (steps/NN-slug/hints.txt).
func hasExercise(step scenario.Step) bool {
	_, err := os.Stat(filepath.Join(step.Dir(), "hints.txt"))
	return err == nil
}

// runHint prints the next hint, one more each time (.workshop/hints/N).
func runHint(args []string) error {
	step, err := stepFlag("hint", args)
	if err != nil {
		return err
	}
	b, err := os.ReadFile(filepath.Join(step.Dir(), "hints.txt"))
	if errors.Is(err, os.ErrNotExist) {
		fmt.Printf("step %d has no exercise: read %s/README.md and run `make step-%d bench`\n", step.N, step.Dir(), step.N)
		return nil
	}
	if err != nil {
		return err
	}
	var hints []string
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			hints = append(hints, l)
		}
	}
	state := filepath.Join(stack.FromEnv().Dir, "hints", fmt.Sprint(step.N))
	seen := 0
	if s, err := os.ReadFile(state); err == nil {
		fmt.Sscan(string(s), &seen)
	}
	if seen >= len(hints) {
		seen = len(hints) - 1
	}
	fmt.Printf("hint %d of %d for step %d:\n  %s\n", seen+1, len(hints), step.N, hints[seen])
	_ = os.MkdirAll(filepath.Dir(state), 0o755)
	return os.WriteFile(state, []byte(fmt.Sprint(seen+1)), 0o644)
}

// runDiff shows what the reference adds over the learner's exercise file.
func runDiff(args []string) error {
	step, err := stepFlag("diff", args)
	if err != nil {
		return err
	}
	if !hasExercise(step) {
		fmt.Printf("step %d has no exercise to compare\n", step.N)
		return nil
	}
	sol := strings.Replace(step.Dir(), "steps/", "solutions/", 1)
	cmd := exec.Command("git", "diff", "--no-index", "--", filepath.Join(step.Dir(), "exercise.go"), filepath.Join(sol, filepath.Base(sol)+".go"))
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() == 1 {
			return nil // git diff exits 1 when files differ
		}
		return err
	}
	return nil
}
