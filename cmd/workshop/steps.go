package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/peakload/workshop/internal/given/catalog"
	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/harness/config"
	"github.com/peakload/workshop/internal/harness/scenario"
	"github.com/peakload/workshop/internal/harness/stack"
	"github.com/peakload/workshop/internal/harness/stepflag"
)

// runStep is `make step-N`: the lesson's opening, then its check.
func runStep(ctx context.Context, cfg config.Config, args []string) error {
	step, err := stepflag.Parse("step", args)
	if err != nil {
		return err
	}
	lesson := messages.Localized(filepath.Join(step.Dir(), "README.md"))
	f, err := os.Open(lesson)
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
	fmt.Print(messages.T("step.whole_lesson", lesson))
	fmt.Print(messages.T("step.commands"))
	actions := []string{"check", "bench", "run"}
	if step.Exercise {
		actions = []string{"watch", "check", "hint", "diff", "reset", "bench", "run"}
	}
	for _, a := range actions {
		fmt.Print(messages.T("cli.step_command", step.N, a))
	}
	fmt.Println()
	return runCheck(ctx, cfg, args)
}

// withServices runs f for the step named in args with the services it
// needs up, and stops again those it had to start.
func withServices(ctx context.Context, cfg config.Config, name string, args []string, f func(scenario.Step, stack.Config) error) (err error) {
	step, err := stepflag.Parse(name, args)
	if err != nil {
		return err
	}
	sc := cfg.Stack
	started, err := upForStep(ctx, sc, step)
	defer func() { err = errors.Join(err, stack.DownStarted(sc, started)) }()
	if err != nil {
		return err
	}
	return f(step, sc)
}

// solution reports SOLUTION=1: every command then runs the reference. main
// has already rejected a value that is not a boolean (parseSolution).

// upForStep starts the step's services and seeds the catalogue if it reads it.
func upForStep(ctx context.Context, sc stack.Config, step scenario.Step) ([]string, error) {
	if len(step.Services) == 0 {
		return nil, nil // stack.Up with no names means all of them
	}
	started, err := stack.Up(ctx, sc, step.Services...)
	if err != nil || !needsPostgres(step.Services) {
		return started, err
	}
	return started, stack.Seed(ctx, sc.Endpoints().PostgresURL)
}

func needsPostgres(services []string) bool {
	for _, s := range services {
		if s == stack.Postgres {
			return true
		}
	}
	return false
}

// runServe is `make step-N run`: the step server in the foreground on
// 127.0.0.1:8080, with its services and (for the read path) the worker.
func runServe(ctx context.Context, cfg config.Config, args []string) error {
	return withServices(ctx, cfg, "run", args, func(step scenario.Step, sc stack.Config) error { return serve(ctx, cfg, step, sc) })
}

func serve(ctx context.Context, cfg config.Config, step scenario.Step, sc stack.Config) error {
	bin, err := buildStep(ctx, cfg, sc, step)
	if err != nil {
		return err
	}
	if step.Worker {
		pool, err := pgxpool.New(ctx, sc.Endpoints().PostgresURL)
		if err != nil {
			return err
		}
		defer pool.Close() // after the worker has stopped (deferred below, so run first)
		p := params.Load()
		skew := scenario.Env{Params: p}.Skew()
		defer startWorker(ctx, pool, p)()
		fmt.Fprint(os.Stderr, messages.T("worker.start", len(skew.HotIDs()), p.Scaled(p.Clock.ChangeS)))
	}
	place, err := placeLikeBench(cfg, sc, step)
	if err != nil {
		return err
	}
	defer place.unpin()
	// LATENCY=0.2ms: the server reaches its databases through the same
	// delaying proxy as the bench's, so k6 or wrk by hand see that server.
	eps, slow, err := slowerNetwork(cfg, sc, step)
	if err != nil {
		return err
	}
	defer slow.Close()
	cmd := exec.Command(bin)
	cmd.Env = append(append(os.Environ(), eps.Env()...), place.env...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	if err := place.pinServer(cmd.Process.Pid); err != nil {
		_ = cmd.Process.Kill()
		return err
	}
	place.printLoadCommands(os.Stderr, step)
	fmt.Fprint(os.Stderr, messages.T("run.ctrl_c"))
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

// startWorker runs the live-stats worker until the returned stop is called;
// stop returns once the worker has returned, so the pool can then close
// under no one's feet.
func startWorker(ctx context.Context, pool *pgxpool.Pool, p params.Params) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	w := catalog.Worker{Pool: pool, IDs: scenario.Env{Params: p}.Skew().HotIDs(), Interval: p.Scaled(p.Clock.ChangeS)}
	go func() {
		defer close(done)
		w.Run(ctx)
	}()
	return func() {
		cancel()
		<-done
	}
}

// runDiff shows what the reference adds over the learner's exercise: each
// function of exercise.go beside the function of the same name in
// solutions/, so the diff is the technique and nothing else.
func runDiff(_ context.Context, cfg config.Config, args []string) error {
	step, err := stepflag.Parse("diff", args)
	if err != nil {
		return err
	}
	if !step.Exercise {
		fmt.Print(messages.T("diff.no_exercise", step.N))
		return nil
	}
	mine, err := funcs(filepath.Join(step.Dir(), "exercise.go"))
	if err != nil {
		return err
	}
	sol := strings.Replace(step.Dir(), "steps/", "solutions/", 1)
	files, _ := filepath.Glob(filepath.Join(sol, "*.go"))
	theirs := map[string]string{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		m, err := funcs(f)
		if err != nil {
			return err
		}
		maps.Copy(theirs, m)
	}
	tmp, err := os.MkdirTemp("", "peakload-diff-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	var a, b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(mine)) {
		a.WriteString(mine[name] + "\n\n")
		b.WriteString(theirs[name] + "\n\n")
	}
	for _, name := range slices.Sorted(maps.Keys(theirs)) {
		if _, ok := mine[name]; !ok && isHelper(name) {
			b.WriteString(theirs[name] + "\n\n") // an unexported helper the reference uses
		}
	}
	_ = os.WriteFile(filepath.Join(tmp, "yours.go"), []byte(a.String()), 0o644)
	_ = os.WriteFile(filepath.Join(tmp, "reference.go"), []byte(b.String()), 0o644)
	fmt.Print(messages.T("diff.head", step.Dir(), sol))
	cmd := exec.Command("git", "diff", "--no-index", "--no-prefix", "--", "yours.go", "reference.go")
	cmd.Dir = tmp
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() == 1 {
			return nil // git diff exits 1 when the files differ
		}
		return err
	}
	fmt.Print(messages.T("diff.same"))
	return nil
}

// isHelper reports whether a function of funcs ("Name" or "Recv.Name") is
// an unexported helper: the function, its method name or its receiver type
// unexported. Exported ones the exercise lacks are the given parts, not the
// technique, and stay out of the diff.
func isHelper(name string) bool {
	for part := range strings.SplitSeq(name, ".") {
		if !ast.IsExported(part) {
			return true
		}
	}
	return false
}

// funcs returns the source of every function in a file, with its doc
// comment, keyed by "Recv.Name" or "Name".
func funcs(path string) (map[string]string, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		name := fn.Name.Name
		if fn.Recv != nil && len(fn.Recv.List) == 1 {
			t := fn.Recv.List[0].Type
			if st, ok := t.(*ast.StarExpr); ok {
				t = st.X
			}
			if id, ok := t.(*ast.Ident); ok {
				name = id.Name + "." + name
			}
		}
		from := fn.Pos()
		if fn.Doc != nil {
			from = fn.Doc.Pos()
		}
		out[name] = string(src[fset.Position(from).Offset:fset.Position(fn.End()).Offset])
	}
	return out, nil
}
