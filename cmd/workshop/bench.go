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
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"

	"github.com/peakload/workshop/internal/balancer"
	"github.com/peakload/workshop/internal/bench"
	"github.com/peakload/workshop/internal/catalog"
	"github.com/peakload/workshop/internal/events"
	"github.com/peakload/workshop/internal/messages"
	"github.com/peakload/workshop/internal/params"
	"github.com/peakload/workshop/internal/scenario"
	"github.com/peakload/workshop/internal/stack"
)

// runBench is `make step-N bench`: bring up what the step needs, build and
// start its server pinned to one CPU, measure every variant, judge the
// claims, write results/step-N/, and stop what it started.
func runBench(ctx context.Context, args []string) (err error) {
	step, err := stepFlag("bench", args)
	if err != nil {
		return err
	}
	p := params.Load()
	o, quick, err := loadOptions(p)
	if err != nil {
		return err
	}
	if step.VUs > 0 && os.Getenv("VUS") == "" {
		o.VUs = step.VUs
	}
	tool, hasWrk, err := benchTool(step)
	if err != nil {
		return err
	}
	if tool, err = arrivalFromEnv(&o, p, tool); err != nil { // ARRIVAL=rate RATE=N: the open loop
		return err
	}
	if tool == "k6" {
		if o.K6, err = bench.K6FromEnv(step.K6Script()); err != nil {
			return err
		}
	}

	// Services: start what is missing, stop it again at the end.
	sc := stack.FromEnv()
	announceStack(sc, step)
	started, err := upForStep(ctx, sc, step)
	defer func() { err = errors.Join(err, downStarted(sc, started)) }()
	if err != nil {
		return err
	}
	env := scenario.Env{Params: p, Tool: tool, HasWrk: hasWrk, Quick: quick,
		ServicesCPU: func() float64 { return bench.TreeCPUSeconds(stack.PIDs(sc)) }}
	closeClients, err := openClients(ctx, sc, step, &env)
	defer closeClients()
	if err != nil {
		return err
	}
	// PEAKLOAD_SERVER_URL: the server runs elsewhere (the Compose bench
	// profile's app container); nothing to build or pin here.
	external, err := externalServer(step)
	if err != nil {
		return err
	}
	var bin string
	if external == "" {
		if bin, err = buildStep(ctx, sc, step); err != nil {
			return err
		}
	}
	plan := step.Plan()
	if external != "" {
		plan = bench.CPUPlan{}
	}
	unpin, err := pinCPUs(sc, plan)
	if err != nil {
		return err
	}
	defer unpin()
	// LATENCY=0.2ms: the server reaches its databases through a delay.
	eps, slow, err := slowerNetwork(sc, step)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, slow.Close()) }()
	srvs := &servers{ctx: ctx, bin: bin, env: eps.Env(), plan: plan, external: external,
		logPath: filepath.Join(sc.Dir, fmt.Sprintf("step-%02d.log", step.N))}
	defer func() { err = errors.Join(err, srvs.stopShared()) }()
	if step.Worker && env.Pool != nil && !workerElsewhere() {
		defer startWorker(ctx, env.Pool, p)() // stops before the shared server
	}

	env.Fleet = balancer.Spec{Bin: bin, Env: eps.Env(), Plan: plan, Dir: sc.Dir} // step 10's replicas
	res := newResult(step, sc, plan, o, quick, tool)
	if tool == "k6" {
		res.Params["k6"] = o.K6.Bin // which k6 measured (K6=path)
	}
	noteLatency(res, slow)
	noteExternal(res, external)
	if err := measureAll(ctx, step, env, o, srvs, sc.Dir, res); err != nil {
		return err
	}
	if err := measureCapacity(ctx, step, env, o, srvs, sc.Dir, res); err != nil { // CAPACITY=1
		return err
	}
	return judgeAndWrite(step, env, res, quick)
}

// benchTool reads TOOL: the Go driver, wrk (installed if missing), both,
// or k6 (every HTTP row run by the step's k6 script, K6=path to choose the
// binary).
func benchTool(step scenario.Step) (tool string, hasWrk bool, err error) {
	tool = os.Getenv("TOOL")
	switch tool {
	case "", "go", "wrk":
	case "k6":
		return tool, false, nil
	default:
		return "", false, errors.New(messages.T("bench.bad_tool", tool))
	}
	hasWrk = bench.HaveWrk()
	if tool == "wrk" && !hasWrk {
		if _, err := stack.Require("wrk", logf); err != nil {
			return "", false, err
		}
		hasWrk = true
	}
	return tool, hasWrk, nil
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
func pinCPUs(sc stack.Config, plan bench.CPUPlan) (unpin func(), err error) {
	if !plan.Pinned {
		return func() {}, nil
	}
	if err := bench.Pin(os.Getpid(), plan.Driver); err != nil {
		return func() {}, err
	}
	all := make([]int, runtime.NumCPU())
	for i := range all {
		all[i] = i
	}
	pids := stack.PIDs(sc)
	for _, pid := range pids {
		_ = bench.PinTree(pid, plan.Services)
	}
	return func() {
		for _, pid := range pids {
			_ = bench.PinTree(pid, all)
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
	plan    bench.CPUPlan
	logPath string
	shared  *bench.Proc
	// external is a server someone else runs (PEAKLOAD_SERVER_URL): every
	// variant is measured against it.
	external string
}

func (s *servers) start(extra []string) (*bench.Proc, error) {
	return bench.StartServer(s.ctx, s.bin, append(slices.Clone(s.env), extra...), s.plan, s.logPath)
}

// forVariant returns the server v runs against; own says it is v's alone,
// to stop after v.
func (s *servers) forVariant(v bench.Variant) (srv *bench.Proc, own bool, err error) {
	if s.external != "" {
		if v.Server != nil {
			return nil, false, fmt.Errorf("%s needs a server of its own (%s), which PEAKLOAD_SERVER_URL=%s cannot give: bench this step natively", v.Name, strings.Join(v.Server, " "), s.external)
		}
		return bench.External(s.external), false, nil
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
func newResult(step scenario.Step, sc stack.Config, plan bench.CPUPlan, o bench.Options, quick bool, tool string) *bench.Result {
	kind := sc.ResolveKind()
	if len(step.Services) == 0 {
		kind = "none"
	}
	res := &bench.Result{Step: step.N, Slug: step.Slug, StartedAt: time.Now().UTC(), Machine: bench.ThisMachine(kind, plan),
		Params: map[string]any{"vus": o.VUs, "iterations": o.Iterations, "duration_s": o.Duration.Seconds(),
			"warmup_s": o.Warmup.Seconds(), "quick": quick, "tool": tool, "solution": solution(),
			"who": whoAmI()}} // make compare DIR= sets many people's runs side by side
	if o.Rate > 0 {
		res.Params["arrival_rate"] = o.Rate
	}
	if slices.Contains(step.Services, stack.Mongo) {
		res.Machine.Mongo = sc.MongoDescription(kind)
	}
	if mongo := os.Getenv("PEAKLOAD_MONGO_URL"); mongo != "" {
		res.Params["mongo_url"] = mongo
	}
	return res
}

// measureAll measures every variant, in Rounds interleaved rounds when the
// step asks for them, into res. An optional server that does not start
// (step 9's "yours" before the exercise is written) skips its rows, said
// in a note.
func measureAll(ctx context.Context, step scenario.Step, env scenario.Env, o bench.Options, srvs *servers, dir string, res *bench.Result) error {
	rounds, err := bench.RoundsFromEnv(step.Rounds)
	if err != nil {
		return err
	}
	if env.Quick && os.Getenv("RUNS") == "" {
		rounds = 1 // a smoke test: interleaving is for measurements (RUNS=N still asks for it)
	}
	if os.Getenv("RUNS") == "" && rounds > 1 && os.Getenv("DURATION") == "" && o.Iterations == 0 {
		o.Duration /= time.Duration(rounds) // step 9: the same time per row, in interleaved rounds
	}
	best := step.Rounds > 1 // step 9 keeps each row's fastest round; RUNS=N rows are medians
	res.Params["rounds"] = rounds
	if best && rounds > 1 {
		res.Params["rows"] = "best"
	}
	fmt.Fprint(os.Stderr, messages.T("bench.start", step.N, step.Slug, o.VUs, describe(o), o.Warmup, rounds, srvs.logPath))
	o.Progress = os.Stderr
	variants := step.Variants(env)
	skipped := map[string]bool{}
	all := make([][]bench.Run, rounds)
	for round := 1; round <= rounds; round++ {
		if rounds > 1 {
			fmt.Fprint(os.Stderr, messages.T("bench.round", round, rounds))
		}
		for _, v := range variants {
			if env.Tool == "k6" && v.Direct == nil {
				v.Tool = "k6" // the step's k6 script runs this row: same name, same window, same counters
			}
			server := strings.Join(v.Server, " ") // "FRAMEWORK=fasthttp"
			if skipped[server] {
				continue
			}
			srv, own, err := srvs.forVariant(v)
			if err != nil && v.Optional {
				skipped[server] = true
				res.Notes = append(res.Notes, messages.English.T("note.skipped", server, lastLine(err)))
				continue
			}
			if err != nil {
				return fmt.Errorf("%s: %w", v.Name, err)
			}
			o.Target = srv.Target
			r, err := bench.Measure(ctx, o, v, srvs.plan, dir)
			r.ServerPeakRSSMB = srv.PeakRSSMB()
			if own {
				err = errors.Join(err, srv.Stop())
			}
			if err != nil {
				return fmt.Errorf("%s: %w\nserver log:\n%s", v.Name, err, srv.Log(10))
			}
			all[round-1] = append(all[round-1], r)
		}
	}
	res.Runs = bench.Combine(all, best)
	if rounds > 1 {
		res.Rounds = all
	}
	return nil
}

// judgeAndWrite judges the claims, prints the table and writes the results file.
func judgeAndWrite(step scenario.Step, env scenario.Env, res *bench.Result, quick bool) error {
	res.Claims = bench.Judge(res, res.Rounds, func(r *bench.Result) []bench.Claim { return step.Claims(r, env) })
	bench.NoteToolLimits(res)
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
	return nil
}

// loadOptions reads VUS, ITERATIONS, DURATION and QUICK over the shared defaults.
func loadOptions(p params.Params) (bench.Options, bool, error) {
	secs := func(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
	quick := os.Getenv("QUICK") != "" && os.Getenv("QUICK") != "0"
	o := bench.Options{VUs: p.Load.VUs, Duration: secs(p.Load.DurationS), Warmup: secs(p.Load.WarmupS)}
	if quick {
		o.Duration, o.Warmup = secs(p.Load.QuickDurationS), secs(p.Load.QuickWarmupS)
	}
	if v := os.Getenv("VUS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return o, quick, errors.New(messages.T("bench.bad_count", "VUS", v))
		}
		o.VUs = n
	}
	if v := os.Getenv("ITERATIONS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return o, quick, errors.New(messages.T("bench.bad_count", "ITERATIONS", v))
		}
		o.Iterations = n
	}
	if v := os.Getenv("DURATION"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			s, err2 := strconv.ParseFloat(v, 64)
			if err2 != nil || s <= 0 {
				return o, quick, errors.New(messages.T("bench.bad_duration", v))
			}
			d = secs(s)
		}
		o.Duration = d
	}
	return o, quick, nil
}

func describe(o bench.Options) string {
	if o.Iterations > 0 {
		return fmt.Sprintf("%d requests", o.Iterations)
	}
	return o.Duration.String()
}

// buildStep compiles the step server (the reference with SOLUTION=1) before
// anything is timed, so compilation never lands in a measurement.
func buildStep(ctx context.Context, sc stack.Config, step scenario.Step) (string, error) {
	bin := filepath.Join(sc.Dir, "bin", fmt.Sprintf("step-%02d", step.N))
	args := []string{"build", "-o", bin}
	if solution() {
		args = append(args, "-tags", "solution")
	}
	if _, err := os.Stat(bin); err != nil {
		fmt.Fprint(os.Stderr, messages.T("build.compiling", step.Dir(), bin))
	}
	t0 := time.Now()
	cmd := exec.CommandContext(ctx, "go", append(args, "./"+step.Dir())...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("build %s: %w", step.Dir(), err)
	}
	if d := time.Since(t0); d > 3*time.Second {
		fmt.Fprint(os.Stderr, messages.T("build.compiled", step.Dir(), d.Seconds()))
	}
	return bin, nil
}

func resultsDir() string {
	if d := os.Getenv("PEAKLOAD_RESULTS"); d != "" {
		return d
	}
	return "results"
}

// lastLine keeps the last line of an error (a server's last log line) for a note.
func lastLine(err error) string {
	lines := strings.Split(strings.TrimSpace(err.Error()), "\n")
	return lines[len(lines)-1]
}

func logf(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }
