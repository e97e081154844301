// Package gate is the mutant gate (make mutants, and make test's phase of
// it): every step's check fails on each wrong answer and passes on each
// right one written another way.
package gate

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
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/peakload/workshop/internal/given/messages"

	"github.com/peakload/workshop/internal/harness/config"
	"github.com/peakload/workshop/internal/harness/scenario"
	"github.com/peakload/workshop/internal/harness/stack"
	"github.com/peakload/workshop/internal/harness/stepflag"
)

// The gate proves each step's check against wrong answers, not only the
// untouched exercise: every steps/NN-slug/testdata/mutants/<name>.go (a
// plausible wrong exercise.go) must make the check FAIL with `--- FAIL`
// lines — no panic, no timeout, which would tell the learner nothing — and
// every testdata/valid/<name>.go (a right answer written another way) must
// PASS. Each file replaces exercise.go through `go test -overlay`, so the
// tree is never touched.
//
// Each variant runs in the two passes of `make step-N check`: first
// `-test.short`, which skips every test that needs a service, so those
// passes run beside each other and beside the compiles; a wrong answer
// caught there is done, with the first failure a learner reads first.
// Only a variant that passes it (every valid one, and a mutant only the
// services catch) gets the full run, every test without -short, one at a
// time, since the checks share the databases. The stages are a pipeline —
// a variant is run as soon as it is compiled — because compiling is CPU
// and the service pass mostly waits on the databases: the two overlap.
// Which tests need the services is the step's manifest entry
// (course.Step.ServiceTests), as for make step-N check: the -short pass
// skips exactly those, the service pass runs exactly those.
//
// Last, once every other verdict is in, every right answer — each valid
// variant that passed, and the reference of each step — runs both passes
// once more beside a busy loop on every CPU, and must pass again: no
// check's verdict may rest on the machine being quiet (issue 33).

// gateTimeout bounds one pass of one variant's check: a mutant that hangs
// the check fails the gate with "timed out" rather than hanging make test.
const gateTimeout = 90 * time.Second

// variant is one replacement of a step's exercise.go.
type variant struct {
	step scenario.Manifest
	kind string // "untouched", "mutant", "valid" or "reference" (run only beside the busy loops)
	name string
	path string // "" for the untouched exercise
	desc string // the file's first comment line, after "<name>: "
	bin  string
	// overlay is the -overlay file; runs get it in GOFLAGS too, so a check
	// that builds its step as a process (step 6) builds this variant.
	overlay string
	err     error // compile error

	short, full outcome // the -short pass, then the service pass (when short passed)
	ranFull     bool
	busy        outcome // a right answer's two passes again, beside busy loops
	ranBusy     bool
	// took is the wall time of the compile, the -short pass, the service
	// pass and the passes beside the busy loops: printed, so a slow
	// variant shows where its time went.
	took [4]time.Duration
	done chan struct{} // closed once the variant's verdict is known
}

// wantPass: valid alternatives and the reference pass; the untouched
// exercise and mutants fail.
func (v *variant) wantPass() bool { return v.kind == "valid" || v.kind == "reference" }

// gateVariants lists the step's untouched exercise, mutants, valid ones
// and its reference (built with -tags solution).
func gateVariants(step scenario.Manifest) ([]*variant, error) {
	vs := []*variant{{step: step, kind: "untouched", name: "exercise.go", desc: "the TODO as shipped"}}
	for _, kind := range []string{"mutant", "valid"} {
		files, _ := filepath.Glob(filepath.Join(step.Dir(), "testdata", map[string]string{"mutant": "mutants", "valid": "valid"}[kind], "*.go"))
		for _, f := range files {
			name := strings.TrimSuffix(filepath.Base(f), ".go")
			desc, err := describe(f, name)
			if err != nil {
				return nil, err
			}
			vs = append(vs, &variant{step: step, kind: kind, name: name, path: f, desc: desc})
		}
	}
	// Last: its verdict comes only beside the busy loops, after the others'.
	vs = append(vs, &variant{step: step, kind: "reference", name: step.SolutionDir(), desc: "the reference, -tags solution"})
	return vs, nil
}

// describe is what a variant file's first line says it is, after its
// name: "// <name>: <what is wrong with it>" (or, valid: what differs).
// The name must be the file's, so the gate's line and the file a
// maintainer opens agree (a description copied from another file fails).
func describe(path, name string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	line, _, _ := strings.Cut(string(b), "\n")
	desc, ok := strings.CutPrefix(line, "// "+name+": ")
	if !ok || strings.TrimSpace(desc) == "" {
		return "", fmt.Errorf("%s: the first line must be `// %s: <what is wrong with it>` (the file's name, then what it is), not %q", path, name, line)
	}
	return desc, nil
}

// compileVariant builds v's test binary in dir (i names its files).
func compileVariant(ctx context.Context, dir string, v *variant, i int) {
	t := time.Now()
	defer func() { v.took[0] = time.Since(t) }()
	v.bin = filepath.Join(dir, fmt.Sprintf("step%02d-%d.test", v.step.N, i))
	// No symbol table nor DWARF: the link, most of a compile here, is a third shorter.
	args := []string{"test", "-c", "-ldflags=-s -w", "-o", v.bin}
	if v.kind == "reference" {
		args = append(args, "-tags", "solution")
	}
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
	stalled   bool // a test gave up waiting on the machine (bubble.Stalled): no verdict
}

var failLine = regexp.MustCompile(`^\s*--- FAIL: (\S+)`)

// readOutcome reads a test binary's output: the first failing test, with
// the first line it printed, and whether it panicked or timed out.
func readOutcome(out string, err error) outcome {
	o := outcome{passed: err == nil}
	name, said := "", ""
	for l := range strings.Lines(out) {
		if strings.Contains(l, messages.StallMark) {
			o.stalled = true
		}
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
	case v.wantPass() && v.ranBusy && !v.busy.passed:
		return fmt.Errorf("a right answer is rejected beside a busy loop on every CPU (a verdict that rests on the machine's load): %s",
			cmp.Or(v.busy.firstFail, "the check failed"))
	case v.wantPass():
		return nil
	case o.passed:
		return errors.New("the check PASSES on this wrong answer: the check cannot catch it")
	case o.stalled:
		return fmt.Errorf("the check gave no verdict (a test stalled waiting on the machine) instead of failing with a message: %s", cmp.Or(o.firstFail, "?"))
	case o.timedOut:
		return fmt.Errorf("the check timed out (%s) instead of failing with a message", gateTimeout)
	case o.panicked:
		return errors.New("the check panicked instead of failing with a message")
	case o.crash != "":
		return fmt.Errorf("the test binary crashed (fatal error: %s) instead of failing with a message: "+
			"state the answer shares with the check must be read under its lock, or the test isolated (internal/harness/crashtest)", o.crash)
	case o.firstFail == "":
		return errors.New("the check failed without a `--- FAIL` line (build or setup error?)")
	}
	return nil
}

// runVariant runs a compiled check in the step's directory, as go test
// does: under -test.short (the service-free pass) or the service pass.
func runVariant(ctx context.Context, sc stack.Config, v *variant, short bool) outcome {
	cmd := exec.CommandContext(ctx, v.bin, runArgs(v, short)...)
	cmd.Dir = v.step.Dir()
	// The endpoints in the -short pass too: a test that reached a service
	// there anyway would reach this stack's, not another run's.
	cmd.Env = append(os.Environ(), append(sc.Endpoints().Env(), "PEAKLOAD_MONGO_BIN="+mongoBin(sc))...)
	if v.overlay != "" {
		cmd.Env = append(cmd.Env, "GOFLAGS=-overlay="+v.overlay)
	}
	out, err := cmd.CombinedOutput()
	return readOutcome(string(out), err)
}

// runArgs are the test binary's flags for one pass of v: the -short pass
// runs every test but the step's ServiceTests, the service pass those.
func runArgs(v *variant, short bool) []string {
	args := []string{"-test.count=1", "-test.timeout=" + gateTimeout.String()}
	switch {
	case short && len(v.step.ServiceTests) > 0:
		args = append(args, "-test.short", "-test.skip="+v.step.ServiceTestsPattern())
	case short:
		args = append(args, "-test.short")
	default:
		args = append(args, "-test.run="+v.step.ServiceTestsPattern())
	}
	if !v.wantPass() {
		args = append(args, "-test.failfast") // the first failure is all we read
	}
	return args
}

// needsServicePass: a variant whose -short pass passed has not been judged
// yet — a valid one must pass the tests with services too, and a wrong one
// may be caught only there. One that failed -short (or did not compile) is
// judged on that, as `make step-N check` stops there; a step none of whose
// tests needs a service has no second pass.
func needsServicePass(v *variant) bool {
	return v.err == nil && v.short.passed && len(v.step.ServiceTests) > 0
}

// needsBusyPass: a right answer that passed on the quiet machine (and
// the reference, which runs only there) runs again beside busy loops.
func needsBusyPass(v *variant) bool {
	if v.err != nil || !v.wantPass() {
		return false
	}
	o, _ := decidingPass(v)
	return v.kind == "reference" || o.passed
}

// decidingPass is the outcome the gate judges v on, and the pass it came
// from (the reference runs only beside the busy loops).
func decidingPass(v *variant) (outcome, string) {
	switch {
	case v.kind == "reference":
		return v.busy, "beside busy loops"
	case v.ranFull:
		return v.full, "with services"
	}
	return v.short, "-short"
}

// stages are how prove compiles a variant, runs one pass of it and keeps
// every CPU busy (the real ones in gate; stand-ins in the scheduling's test).
type stages struct {
	compile func(v *variant, i int)
	run     func(v *variant, short bool) outcome
	hog     func() (stop func())
}

// timed is one pass of v, its wall time added to v.took[slot].
func (do stages) timed(v *variant, short bool, slot int) outcome {
	t := time.Now()
	defer func() { v.took[slot] += time.Since(t) }()
	return do.run(v, short)
}

// prove compiles and runs every variant in a pipeline: `workers` compile
// at a time and hand each binary on at once to its -short pass (up to
// 2×workers of those at a time: they mostly wait, and a compile slot
// waiting for one would leave a CPU idle); those that pass it queue for
// the service pass, which runs one at a time beside them once hold is
// closed (make test starts the gate before its other tests with services,
// so the compiles overlap them, and runs no check beside them). When every
// variant has its verdict, the right answers run both passes again the
// same way beside do.hog's busy loops (nothing else of the gate runs then,
// so the load is the loops' and theirs). Each variant's done is closed when its
// verdict is in, so the caller prints in order while later ones still run.
func prove(vs []*variant, workers int, hold <-chan struct{}, do stages) {
	next := make(chan int)
	services := make(chan *variant, len(vs))
	again := make(chan *variant, len(vs))
	shorts := make(chan struct{}, 2*workers)
	for _, v := range vs {
		v.done = make(chan struct{})
	}
	var wg, quiet sync.WaitGroup // every pass; every pass on the quiet machine
	quiet.Add(len(vs))
	judged := func(v *variant) {
		if needsBusyPass(v) {
			again <- v
		} else {
			close(v.done)
		}
		quiet.Done()
	}
	decided := func(v *variant) {
		if needsServicePass(v) {
			services <- v
		} else {
			judged(v)
		}
	}
	for range workers {
		wg.Go(func() {
			for i := range next {
				v := vs[i]
				if do.compile(v, i); v.err != nil || v.kind == "reference" {
					judged(v) // the reference runs only beside the busy loops
					continue
				}
				wg.Go(func() {
					shorts <- struct{}{}
					v.short = do.timed(v, true, 1)
					<-shorts
					decided(v)
				})
			}
		})
	}
	go do.servicePasses(hold, services, judged)
	go func() {
		quiet.Wait()
		close(again)
		do.busyPasses(again, len(vs), workers)
	}()
	go func() {
		for i := range vs {
			next <- i
		}
		close(next)
		wg.Wait()
		close(services)
	}()
}

// servicePasses runs the service pass of each variant in services, one at
// a time, once hold is closed (the databases are someone else's until then),
// and hands it to judged.
func (do stages) servicePasses(hold <-chan struct{}, services <-chan *variant, judged func(*variant)) {
	<-hold
	for v := range services {
		v.full, v.ranFull = do.timed(v, false, 2), true
		judged(v)
	}
}

// busyPasses runs the right answers in again (at most n of them) both
// passes once more beside do.hog's busy loops, as on the quiet machine:
// `workers` -short passes at a time, the service passes one at a time
// beside them. Each variant's done is closed when its last pass is in.
func (do stages) busyPasses(again <-chan *variant, n, workers int) {
	stop := do.hog()
	defer stop()
	busyServices := make(chan *variant, n)
	var shortsDone sync.WaitGroup
	for range workers {
		shortsDone.Go(func() {
			for v := range again {
				v.busy, v.ranBusy = do.timed(v, true, 3), true
				if v.busy.passed && len(v.step.ServiceTests) > 0 {
					busyServices <- v
				} else {
					close(v.done)
				}
			}
		})
	}
	go func() { shortsDone.Wait(); close(busyServices) }()
	for v := range busyServices {
		v.busy = do.timed(v, false, 3)
		close(v.done)
	}
}

// busyLoops spins a goroutine on every CPU the gate may use until stop is
// called: the load of a learner's laptop running a build, a browser and
// the check at once, made worse.
func busyLoops() (stop func()) {
	var done atomic.Bool
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for !done.Load() {
			}
		})
	}
	return func() { done.Store(true); wg.Wait() }
}

// gateLine is the printed line of a variant whose verdict is in: what it
// is, which pass decided and what the learner reads there, and the times;
// ok is false when the variant breaks the gate.
func gateLine(v *variant) (line string, ok bool) {
	o, pass := decidingPass(v)
	what := pass + ": " + cmp.Or(o.firstFail, "passes")
	if v.wantPass() && o.passed {
		what = map[bool]string{true: "passes -short and with services", false: "passes -short"}[v.ranFull]
		if v.kind == "reference" {
			what = "passes"
		}
		if v.ranBusy && v.busy.passed {
			what += ", and beside a busy loop on every CPU"
		}
	}
	err := judge(v, o)
	if err != nil {
		what = pass + ": " + err.Error()
	}
	times := fmt.Sprintf("built %.1fs, -short %.1fs", v.took[0].Seconds(), v.took[1].Seconds())
	if v.ranFull {
		times += fmt.Sprintf(", services %.1fs", v.took[2].Seconds())
	}
	if v.ranBusy {
		times += fmt.Sprintf(", busy %.1fs", v.took[3].Seconds())
	}
	return fmt.Sprintf("step %d %s %s (%s) → %s [%s]", v.step.N, v.kind, v.name, v.desc, what, times), err == nil
}

// mongoBin is the embedded FerretDB's binary, absolute: the check runs in
// the step's directory.
func mongoBin(sc stack.Config) string {
	bin, _ := filepath.Abs(filepath.Join(sc.Dir, "bin", "mongo"))
	return bin
}

// Started is a gate under way: its variants compiling and running their
// -short passes, the service passes held until release.
type Started struct {
	all    []*variant
	tmp    string
	start  time.Time
	hold   chan struct{}
	cancel context.CancelFunc
}

// Start begins proving the checks of steps: it compiles every variant
// and runs its -short pass, which need no service; the service passes wait
// for finish. make test starts it early, so the CPU-bound compiles fill
// the time the phases before it spend waiting on the databases.
func Start(ctx context.Context, sc stack.Config, steps []scenario.Manifest) (*Started, error) {
	var all []*variant
	for _, step := range steps {
		if !step.Exercise {
			continue
		}
		vs, err := gateVariants(step)
		if err != nil {
			return nil, err
		}
		all = append(all, vs...)
	}
	tmp, err := os.MkdirTemp("", "peakload-gate-")
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	g := &Started{all: all, tmp: tmp, start: time.Now(), hold: make(chan struct{}), cancel: cancel}
	// Two compiles at a time on 2 CPUs: a link is mostly one CPU's work.
	prove(all, max(runtime.NumCPU(), 2), g.hold, stages{
		compile: func(v *variant, i int) { compileVariant(ctx, tmp, v, i) },
		run:     func(v *variant, short bool) outcome { return runVariant(ctx, sc, v, short) },
		hog:     busyLoops,
	})
	return g, nil
}

// Stop ends a gate that will not be finished (make test failed before it):
// its runs are cancelled and its files removed.
func (g *Started) Stop() {
	g.cancel()
	select {
	case <-g.hold:
	default:
		close(g.hold)
	}
	for _, v := range g.all {
		<-v.done
	}
	os.RemoveAll(g.tmp)
}

// Finish releases the service passes (the services up, nothing else using
// them), prints one line per variant in order as its verdict comes in, and
// returns an error naming every variant that broke the gate.
func (g *Started) Finish() error {
	defer g.Stop()
	close(g.hold)
	var broken []string
	var took [4]time.Duration
	for _, v := range g.all {
		<-v.done
		for i := range took {
			took[i] += v.took[i]
		}
		if line, ok := gateLine(v); !ok {
			fmt.Fprintf(os.Stderr, "    FAIL %s\n", line)
			broken = append(broken, fmt.Sprintf("step %d %s %s", v.step.N, v.kind, v.name))
		} else {
			fmt.Fprintf(os.Stderr, "    ok   %s\n", line)
		}
	}
	fmt.Fprintf(os.Stderr, "    %d variants proven %.1fs after the gate started (summed: compiling %.1fs, -short passes %.1fs, service passes %.1fs; "+
		"the right answers again beside busy loops %.1fs)\n",
		len(g.all), time.Since(g.start).Seconds(), took[0].Seconds(), took[1].Seconds(), took[2].Seconds(), took[3].Seconds())
	if len(broken) > 0 {
		return fmt.Errorf("the gate is broken by: %s", strings.Join(broken, "; "))
	}
	return nil
}

// gate proves the checks of steps (the services up) and prints one line
// per variant. It returns an error naming every variant that broke it.
func gate(ctx context.Context, sc stack.Config, steps []scenario.Manifest) error {
	g, err := Start(ctx, sc, steps)
	if err != nil {
		return err
	}
	return g.Finish()
}

// Run is `make mutants` / `make step-N mutants`: the gate alone,
// with the services its steps' entries declare up (started and stopped
// when not already running; the catalogue seeded when PostgreSQL is one):
// a step that needs none starts none.
func Run(ctx context.Context, cfg config.Config, args []string) (err error) {
	steps := scenario.Steps()
	if len(args) > 0 {
		step, err := stepflag.Parse("mutants", args)
		if err != nil {
			return err
		}
		steps = []scenario.Manifest{step.Manifest}
	}
	sc := cfg.Stack
	started, err := upGated(ctx, sc, gateServices(steps))
	defer func() { err = errors.Join(err, stack.DownStarted(sc, started)) }()
	if err != nil {
		return err
	}
	return gate(ctx, sc, steps)
}

// gateServices is what the gate of steps needs up: the services declared
// by the steps it proves (those with an exercise), in stack.All's order.
// A check's service tests reach no other (internal/harness/stacktest
// fails one that does).
func gateServices(steps []scenario.Manifest) []string {
	var out []string
	for _, name := range stack.All {
		for _, st := range steps {
			if st.Exercise && slices.Contains(st.Services, name) {
				out = append(out, name)
				break
			}
		}
	}
	return out
}

// upGated starts services (none named: none, unlike stack.Up, which
// starts all) and seeds the catalogue when PostgreSQL is one of them.
func upGated(ctx context.Context, sc stack.Config, services []string) ([]string, error) {
	if len(services) == 0 {
		return nil, nil
	}
	started, err := stack.Up(ctx, sc, services...)
	if err != nil || !slices.Contains(services, stack.Postgres) {
		return started, err
	}
	return started, stack.Seed(ctx, sc.Endpoints().PostgresURL)
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
