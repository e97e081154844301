package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/peakload/workshop/internal/harness/original"
	"github.com/peakload/workshop/internal/harness/servicestats"
	"github.com/peakload/workshop/internal/harness/stepflag"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"

	"github.com/peakload/workshop/internal/given/catalog"
	"github.com/peakload/workshop/internal/given/events"
	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/harness/balancer"
	"github.com/peakload/workshop/internal/harness/config"
	"github.com/peakload/workshop/internal/harness/latency"
	"github.com/peakload/workshop/internal/harness/load"
	"github.com/peakload/workshop/internal/harness/proc"
	"github.com/peakload/workshop/internal/harness/result"
	"github.com/peakload/workshop/internal/harness/scenario"
	"github.com/peakload/workshop/internal/harness/stack"
)

// runBench is `make step-N bench`: bring up what the step needs, build and
// start its server pinned to one CPU, measure every variant, judge the
// claims, write results/step-N/, and stop what it started.
func runBench(ctx context.Context, cfg config.Config, args []string) (err error) {
	step, err := stepflag.Parse("bench", args)
	if err != nil {
		return err
	}
	p := params.Load()
	o, tool, hasWrk, err := benchOptions(cfg, p, step)
	if err != nil {
		return err
	}
	// Services: start what is missing, stop it again at the end.
	sc := cfg.Stack
	announceStack(sc, step)
	external, err := externalServer(cfg, step)
	if err != nil {
		return err
	}
	build := startBuild(ctx, cfg, sc, step, external)
	defer build.stop()
	step.Services = step.ServicesWithOriginals(cfg.Original) // step 0's article B servers need MongoDB
	started, err := upForStep(ctx, sc, step)
	defer func() { err = errors.Join(err, stack.DownStarted(sc, started)) }()
	if err != nil {
		return err
	}
	env := scenario.Env{Params: p, Tool: tool, HasWrk: hasWrk, Quick: cfg.Quick, Original: cfg.Original,
		ServicesCPU: func() float64 { return proc.TreeCPUSeconds(stack.PIDs(sc)) }}
	closeClients, err := openClients(ctx, sc, step, &env)
	defer closeClients()
	if err != nil {
		return err
	}
	srvs, stopServers, err := prepareServers(ctx, cfg, sc, step, external, build)
	defer func() { err = errors.Join(err, stopServers()) }()
	if err != nil {
		return err
	}
	if step.Worker && env.Pool != nil && !cfg.WorkerElsewhere {
		defer startWorker(ctx, env.Pool, p)() // stops before the shared server
	}
	env.Fleet = balancer.Spec{Bin: srvs.bin, Env: srvs.env, Plan: srvs.plan, Dir: sc.Dir} // step 10's replicas
	res := newResult(cfg, step, sc, srvs.plan, o, tool)
	if external == "" && srvs.slow == nil && (len(step.Services) == 0 || res.Machine.Stack == "native") {
		// Every process of ours is then readable (not LATENCY's proxy): the
		// rest of the CPUs' time is other processes' (Run.OtherCPU).
		o.ServicesCPU = env.ServicesCPU
	}
	noteLatency(res, srvs.slow)
	noteExternal(res, srvs.external)
	if err := measureAll(ctx, cfg, step, env, o, srvs, sc.Dir, res); err != nil {
		return err
	}
	if err := measureCapacity(ctx, cfg, step, env, o, srvs, sc.Dir, res); err != nil { // CAPACITY=1
		return err
	}
	return judgeAndWrite(step, env, res, cfg.Quick)
}

// benchOptions are the load's options and its tool: VUS, ITERATIONS,
// DURATION and QUICK over the shared defaults (the step's own VUs unless
// VUS is set), TOOL, the open loop (ARRIVAL=rate RATE=N) and k6's binary.
func benchOptions(cfg config.Config, p params.Params, step scenario.Step) (o load.Options, tool string, hasWrk bool, err error) {
	o = loadOptions(cfg, p)
	if step.VUs > 0 && cfg.VUs == 0 {
		o.VUs = step.VUs
	}
	if tool, hasWrk, err = benchTool(cfg); err != nil {
		return o, tool, hasWrk, err
	}
	if tool, err = arrival(cfg, &o, p, tool); err != nil {
		return o, tool, hasWrk, err
	}
	if tool == "k6" {
		o.K6, err = load.FindK6(cfg.K6, step.K6Script())
	}
	return o, tool, hasWrk, err
}

// benchTool reads TOOL: the Go driver, wrk (installed if missing), both,
// or k6 (every HTTP row run by the step's k6 script, K6=path to choose the
// binary).
func benchTool(cfg config.Config) (tool string, hasWrk bool, err error) {
	if cfg.Tool == "k6" {
		return cfg.Tool, false, nil
	}
	hasWrk = load.HaveWrk()
	if cfg.Tool == "wrk" && !hasWrk {
		if _, err := stack.Require("wrk", logf); err != nil {
			return "", false, err
		}
		hasWrk = true
	}
	return cfg.Tool, hasWrk, nil
}

// openClients gives the scenario the clients its variants use to reset or
// inspect data (the catalogue warmed, Redis, the events store); the
// returned function closes them.
func openClients(ctx context.Context, sc stack.Config, step scenario.Step, env *scenario.Env) (closeAll func(), err error) {
	var closers []func()
	closeAll = func() {
		for _, c := range slices.Backward(closers) {
			c()
		}
	}
	if len(step.Services) > 0 && step.Services[0] == stack.Postgres {
		pool, err := pgxpool.New(ctx, sc.Endpoints().PostgresURL)
		if err != nil {
			return closeAll, err
		}
		closers = append(closers, pool.Close)
		catalog.Warm(ctx, pool) // upForStep seeded it
		env.Pool = pool
	}
	if slices.Contains(step.Services, stack.Mongo) {
		store, err := events.Open(ctx, sc.Endpoints().MongoURL)
		if err != nil {
			return closeAll, err
		}
		closers = append(closers, func() { _ = store.Close(context.Background()) })
		env.Mongo = store
	}
	if slices.Contains(step.Services, stack.Redis) {
		env.Redis = redis.NewClient(&redis.Options{Addr: sc.Endpoints().RedisAddr})
		closers = append(closers, func() { _ = env.Redis.Close() })
	}
	return closeAll, nil
}

// pinCPUs gives the server one CPU alone (step 8: all but the driver's),
// the databases and the driver the rest (each their own on 4+ CPUs). The
// returned function gives the databases every CPU back.
func pinCPUs(sc stack.Config, plan result.CPUPlan) (unpin func(), err error) {
	if !plan.Pinned {
		return func() {}, nil
	}
	if err := proc.Pin(os.Getpid(), plan.Driver); err != nil {
		return func() {}, err
	}
	all := make([]int, runtime.NumCPU())
	for i := range all {
		all[i] = i
	}
	pids := stack.PIDs(sc)
	for _, pid := range pids {
		_ = proc.PinTree(pid, plan.Services)
	}
	return func() {
		for _, pid := range pids {
			_ = proc.PinTree(pid, all)
		}
	}, nil
}

// servers starts the step's server processes: one shared by the variants
// that need no server of their own, started on first use, and one per
// variant that names its own environment (step 9's frameworks and pools).
type servers struct {
	ctx     context.Context
	bin     string
	env     []string
	plan    result.CPUPlan
	logPath string
	shared  *proc.Proc
	// external is a server someone else runs (PEAKLOAD_SERVER_URL): every
	// variant is measured against it.
	external string
	slow     *latency.Stack // LATENCY's proxies, nil without
	// eps and uses: where the databases are and which the step uses, for
	// counting an original's work at them (servicestats).
	eps  stack.Endpoints
	uses servicestats.Uses
}

// prepareServers waits for the step server's build (none with
// PEAKLOAD_SERVER_URL, external), pins the CPUs and puts LATENCY's proxy
// between the server and its databases. stop undoes it all, the shared
// server first.
func prepareServers(ctx context.Context, cfg config.Config, sc stack.Config, step scenario.Step, external string, build *stepBuild) (srvs *servers, stop func() error, err error) {
	var undo []func() error
	stop = func() error {
		var errs []error
		for _, u := range slices.Backward(undo) {
			errs = append(errs, u())
		}
		return errors.Join(errs...)
	}
	srvs = &servers{ctx: ctx, plan: step.Plan(cfg.NoPin), external: external,
		logPath: filepath.Join(sc.Dir, fmt.Sprintf("step-%02d.log", step.N))}
	if external != "" {
		srvs.plan = result.CPUPlan{}
	} else if srvs.bin, err = build.wait(); err != nil {
		return nil, stop, err
	}
	unpin, err := pinCPUs(sc, srvs.plan)
	if err != nil {
		return nil, stop, err
	}
	undo = append(undo, func() error { unpin(); return nil })
	eps, slow, err := slowerNetwork(cfg, sc, step)
	if err != nil {
		return nil, stop, err
	}
	undo = append(undo, slow.Close, srvs.stopShared)
	srvs.env, srvs.slow, srvs.eps = eps.Env(), slow, eps
	srvs.uses = servicestats.Uses{Postgres: slices.Contains(step.Services, stack.Postgres),
		Redis: slices.Contains(step.Services, stack.Redis), Mongo: slices.Contains(step.Services, stack.Mongo)}
	return srvs, stop, nil
}

func (s *servers) start(extra []string) (*proc.Proc, error) {
	return proc.StartServer(s.ctx, s.bin, append(slices.Clone(s.env), extra...), s.plan, s.logPath)
}

// startOriginal starts a source's own server (ORIGINAL=1) on the Go
// server's CPU, with the same databases; its log is beside the step's.
func (s *servers) startOriginal(p original.Program) (*proc.Proc, error) {
	root, err := original.Root()
	if err != nil {
		return nil, err
	}
	bin, args, err := p.Command(root)
	if err != nil {
		return nil, err
	}
	log := strings.TrimSuffix(s.logPath, ".log") + "-original.log"
	return proc.StartProgram(s.ctx, bin, args, append(slices.Clone(s.env), p.Env...), s.plan, log)
}

// forVariant returns the server v runs against; own says it is v's alone,
// to stop after v.
func (s *servers) forVariant(v load.Variant) (srv *proc.Proc, own bool, err error) {
	if s.external != "" {
		if v.Original != nil {
			return nil, false, errors.New(messages.T("external.original", v.Name, v.Original, s.external))
		}
		if v.Server != nil {
			return nil, false, errors.New(messages.T("external.server", v.Name, strings.Join(v.Server, " "), s.external))
		}
		return proc.External(s.external), false, nil
	}
	if v.Original != nil {
		srv, err = s.startOriginal(*v.Original)
		return srv, true, err
	}
	if v.Server != nil {
		srv, err = s.start(v.Server)
		return srv, true, err
	}
	if s.shared == nil {
		if s.shared, err = s.start(nil); err != nil {
			return nil, false, err
		}
	}
	return s.shared, false, nil
}

func (s *servers) stopShared() error {
	if s.shared == nil {
		return nil
	}
	return s.shared.Stop()
}

// newResult is the results file's head: the step, this machine, the options.
func newResult(cfg config.Config, step scenario.Step, sc stack.Config, plan result.CPUPlan, o load.Options, tool string) *result.Result {
	kind := sc.ResolveKind()
	if len(step.Services) == 0 {
		kind = "none"
	}
	res := &result.Result{Step: step.N, Slug: step.Slug, StartedAt: time.Now().UTC(), Machine: proc.ThisMachine(kind, plan),
		Params: map[string]any{"vus": o.VUs, "iterations": o.Iterations, "duration_s": o.Duration.Seconds(),
			"warmup_s": o.Warmup.Seconds(), "quick": cfg.Quick, "original": cfg.Original, "tool": tool, "solution": cfg.Solution,
			"who": whoAmI()}} // make compare DIR= sets many people's runs side by side
	if o.Rate > 0 {
		res.Params["arrival_rate"] = o.Rate
	}
	if tool == "k6" {
		res.Params["k6"] = o.K6.Bin // which k6 measured (K6=path)
	}
	if slices.Contains(step.Services, stack.Mongo) {
		res.Machine.Mongo = sc.MongoDescription(kind, messages.English)
	}
	if cfg.MongoURL != "" {
		res.Params["mongo_url"] = cfg.MongoURL
	}
	if cfg.Original {
		res.Machine.Runtimes = runtimes()
	}
	return res
}

// runtimes are the originals' runtimes here, for the results file: none
// when the repository's originals/ is not found (their rows are skipped).
func runtimes() map[string]string {
	root, err := original.Root()
	if err != nil {
		return nil
	}
	return original.Versions(root)
}

// measureAll measures every variant, in Rounds interleaved rounds when the
// step asks for them, into res. An optional server that does not start
// (step 9's "yours" before the exercise is written) skips its rows, said
// in a note.
func measureAll(ctx context.Context, cfg config.Config, step scenario.Step, env scenario.Env, o load.Options, srvs *servers, dir string, res *result.Result) error {
	rounds := benchRounds(cfg, step, env, &o)
	best := step.Rounds > 1 // step 9 keeps each row's fastest round; RUNS=N rows are medians
	res.Params["rounds"] = rounds
	if best && rounds > 1 {
		res.Params["rows"] = "best"
	}
	fmt.Fprint(os.Stderr, messages.T("bench.start", step.N, step.Slug, o.VUs, describe(o), o.Warmup, rounds, srvs.logPath))
	o.Progress = os.Stderr
	variants := step.Variants(env)
	skipped := map[string]bool{}
	all := make([][]result.Run, rounds)
	for round := 1; round <= rounds; round++ {
		if rounds > 1 {
			fmt.Fprint(os.Stderr, messages.T("bench.round", round, rounds))
		}
		for _, v := range variants {
			if env.Tool == "k6" && v.Direct == nil {
				v.Tool = "k6" // the step's k6 script runs this row: same name, same window, same counters
			}
			server := strings.Join(v.Server, " ") // "FRAMEWORK=fasthttp"
			if v.Original != nil {
				server = v.Original.String()
			}
			if skipped[server] {
				continue
			}
			srv, own, err := srvs.forVariant(v)
			if err != nil && (v.Optional || errors.Is(err, original.ErrMissing)) {
				skipped[server] = true
				res.Notes = append(res.Notes, messages.English.T("note.skipped", server, lastLine(err)))
				continue
			}
			if err != nil {
				return fmt.Errorf("%s: %w", v.Name, err)
			}
			r, err := srvs.measureOn(ctx, o, v, srv, own, dir)
			if err != nil {
				return err
			}
			all[round-1] = append(all[round-1], r)
		}
	}
	res.Runs = result.Combine(all, best)
	if rounds > 1 {
		res.Rounds = all
	}
	return nil
}

// benchRounds is how many interleaved rounds the bench measures: RUNS=N,
// else one in a smoke test, else the step's. Step 9's rounds share its
// window, so o.Duration becomes one round's share.
func benchRounds(cfg config.Config, step scenario.Step, env scenario.Env, o *load.Options) int {
	rounds := max(step.Rounds, 1)
	switch {
	case cfg.Runs > 0:
		rounds = cfg.Runs
	case env.Quick:
		rounds = 1 // a smoke test: interleaving is for measurements (RUNS=N still asks for it)
	}
	if cfg.Runs == 0 && rounds > 1 && cfg.Duration == 0 && o.Iterations == 0 {
		o.Duration /= time.Duration(rounds) // step 9: the same time per row, in interleaved rounds
	}
	return rounds
}

// measureOn measures row v on srv and stops srv when it is the row's own.
// A source's original serves no /metrics of ours: its counters are read at
// the databases instead.
func (s *servers) measureOn(ctx context.Context, o load.Options, v load.Variant, srv *proc.Proc, own bool, dir string) (result.Run, error) {
	o.Target, o.Counters = srv.Target, nil
	var counted *servicestats.Reader
	if v.Original != nil {
		uses := s.uses
		uses.Events = v.Settle // a write row: what it persisted
		var err error
		if counted, err = servicestats.Open(ctx, srv.Pid(), s.eps, uses); err != nil {
			return result.Run{}, errors.Join(fmt.Errorf("%s: %w", v.Name, err), srv.Stop())
		}
		o.Counters = counted.Read
	}
	r, err := load.Measure(ctx, o, v, s.plan, dir)
	if counted != nil {
		counted.Close()
		r.CountedAt = "services"
	}
	r.ServerPeakRSSMB = srv.PeakRSSMB()
	if own {
		err = errors.Join(err, srv.Stop())
	}
	if err != nil {
		return result.Run{}, fmt.Errorf("%s: %w\nserver log:\n%s", v.Name, err, srv.Log(10))
	}
	return r, nil
}

// judgeAndWrite judges the claims, prints the table and writes the results file.
func judgeAndWrite(step scenario.Step, env scenario.Env, res *result.Result, quick bool) error {
	res.Claims = result.Judge(res, res.Rounds, func(r *result.Result) []result.Claim { return step.Claims(r, env) })
	result.NoteToolLimits(res)
	if step.Tables != nil {
		res.Tables = step.Tables(res)
	}
	res.Tables = append(res.Tables, openLoopTables(res)...)
	if quick {
		res.Notes = append(res.Notes, messages.English.T("note.quick"))
	}
	res.Print(os.Stdout)
	path, err := res.Write(resultsDir())
	if err != nil {
		return err
	}
	fmt.Print(messages.T("bench.wrote", path, path))
	if step.Unrecorded {
		fmt.Print(messages.T("bench.unrecorded", step.N, path, step.N, step.N))
	}
	return nil
}

// loadOptions reads VUS, ITERATIONS, DURATION and QUICK over the shared defaults.
func loadOptions(cfg config.Config, p params.Params) load.Options {
	secs := func(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
	o := load.Options{VUs: p.Load.VUs, Duration: secs(p.Load.DurationS), Warmup: secs(p.Load.WarmupS), Iterations: cfg.Iterations}
	if cfg.Quick {
		o.Duration, o.Warmup = secs(p.Load.QuickDurationS), secs(p.Load.QuickWarmupS)
	}
	if cfg.VUs > 0 {
		o.VUs = cfg.VUs
	}
	if cfg.Duration != 0 {
		o.Duration = cfg.Duration
	}
	return o
}

func describe(o load.Options) string {
	if o.Iterations > 0 {
		return fmt.Sprintf("%d requests", o.Iterations)
	}
	return o.Duration.String()
}

// stepBuild is the step server's compilation, started before the services
// so that it runs while they start and the catalogue is seeded (mostly
// one PostgreSQL CPU: the compiler, on every CPU, fills what is left). The
// bench waits for it before pinning or timing anything.
type stepBuild struct {
	done   chan struct{}
	bin    string
	err    error
	cancel context.CancelFunc
}

// startBuild starts compiling the step server; none for a server someone
// else runs (external).
func startBuild(ctx context.Context, cfg config.Config, sc stack.Config, step scenario.Step, external string) *stepBuild {
	b := &stepBuild{done: make(chan struct{})}
	if external != "" {
		close(b.done)
		return b
	}
	ctx, b.cancel = context.WithCancel(ctx)
	go func() {
		defer close(b.done)
		b.bin, b.err = buildStep(ctx, cfg, sc, step)
	}()
	return b
}

// wait returns the compiled server.
func (b *stepBuild) wait() (string, error) {
	<-b.done
	return b.bin, b.err
}

// stop ends a compilation the bench no longer needs (it stopped early)
// and waits for it, so no compiler outlives the bench.
func (b *stepBuild) stop() {
	if b.cancel != nil {
		b.cancel()
	}
	<-b.done
}

// buildStep compiles the step server (the reference with SOLUTION=1) before
// anything is timed, so compilation never lands in a measurement.
func buildStep(ctx context.Context, cfg config.Config, sc stack.Config, step scenario.Step) (string, error) {
	bin := filepath.Join(sc.Dir, "bin", fmt.Sprintf("step-%02d", step.N))
	args := []string{"build", "-o", bin}
	if cfg.Solution {
		args = append(args, "-tags", "solution")
	}
	if _, err := os.Stat(bin); err != nil {
		fmt.Fprint(os.Stderr, messages.T("build.compiling", step.Dir(), bin))
	}
	t0 := time.Now()
	cmd := exec.CommandContext(ctx, "go", append(args, "./"+step.Dir())...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	// Its own process group, killed whole when the bench stops early: go's
	// compile and link children would otherwise outlive it and load the
	// CPUs of the next measurement.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("build %s: %w", step.Dir(), err)
	}
	if d := time.Since(t0); d > 3*time.Second {
		fmt.Fprint(os.Stderr, messages.T("build.compiled", step.Dir(), d.Seconds()))
	}
	return bin, nil
}

// resultsDir is where results files go (config.Config.ResultsDir: PEAKLOAD_RESULTS or results/, from main's one parse).
func resultsDir() string { return settings.ResultsDir }

// lastLine keeps the last line of an error (a server's last log line) for a note.
func lastLine(err error) string {
	lines := strings.Split(strings.TrimSpace(err.Error()), "\n")
	return lines[len(lines)-1]
}

func logf(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }
