package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"maps"
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

	"github.com/peakload/workshop/internal/bench"
	"github.com/peakload/workshop/internal/catalog"
	"github.com/peakload/workshop/internal/events"
	"github.com/peakload/workshop/internal/params"
	"github.com/peakload/workshop/internal/scenario"
	"github.com/peakload/workshop/internal/stack"
)

// runBench is `make step-N bench`: bring up what the step needs, build and
// start its server pinned to one CPU, measure every variant, judge the
// claims, write results/step-N/, and stop what it started.
func runBench(ctx context.Context, args []string) (err error) {
	fs := flag.NewFlagSet("bench", flag.ExitOnError)
	n := fs.Int("step", -1, "step number")
	_ = fs.Parse(args)
	step, err := scenario.Get(*n)
	if err != nil {
		return err
	}
	p := params.Load()
	o, quick, err := loadOptions(p)
	if err != nil {
		return err
	}
	tool := os.Getenv("TOOL")
	switch tool {
	case "", "go", "wrk":
	case "k6":
		return fmt.Errorf("TOOL=k6: run `k6 run -e BASE_URL=http://127.0.0.1:8080 k6/%02d-%s.js` against `make step-%d run` (k6 is not driven from here yet)", step.N, step.Slug, step.N)
	default:
		return fmt.Errorf("unknown TOOL=%q (want go, wrk or k6)", tool)
	}
	hasWrk := bench.HaveWrk()
	if tool == "wrk" && !hasWrk {
		_, err := stack.Require("wrk", logf)
		if err != nil {
			return err
		}
		hasWrk = true
	}

	// Services: start what is missing, stop it again at the end.
	sc := stack.FromEnv()
	started, err := upForStep(ctx, sc, step)
	defer func() { err = errors.Join(err, downStarted(sc, started)) }()
	if err != nil {
		return err
	}
	env := scenario.Env{Params: p, Tool: tool, HasWrk: hasWrk, Quick: quick}
	if len(step.Services) > 0 && step.Services[0] == stack.Postgres {
		pool, err := pgxpool.New(ctx, sc.Endpoints().PostgresURL)
		if err != nil {
			return err
		}
		defer pool.Close()
		catalog.Warm(ctx, pool) // upForStep seeded it
		env.Pool = pool
	}

	if slices.Contains(step.Services, stack.Mongo) {
		store, err := events.Open(ctx, sc.Endpoints().MongoURL)
		if err != nil {
			return err
		}
		defer store.Close(context.Background())
		env.Mongo = store
	}
	if step.VUs > 0 && os.Getenv("VUS") == "" {
		o.VUs = step.VUs
	}
	if slices.Contains(step.Services, stack.Redis) {
		env.Redis = redis.NewClient(&redis.Options{Addr: sc.Endpoints().RedisAddr})
		defer env.Redis.Close()
	}

	bin, err := buildStep(ctx, sc, step)
	if err != nil {
		return err
	}

	// CPUs: the server alone on one (step 8: on all but the driver's); the
	// databases and the driver on the rest (each their own on 4+ CPUs).
	plan := step.Plan()
	if plan.Pinned {
		if err := bench.Pin(os.Getpid(), plan.Driver); err != nil {
			return err
		}
		all := make([]int, runtime.NumCPU())
		for i := range all {
			all[i] = i
		}
		for _, pid := range stack.PIDs(sc) {
			_ = bench.PinTree(pid, plan.Services)
			defer bench.PinTree(pid, all)
		}
	}
	logPath := filepath.Join(sc.Dir, fmt.Sprintf("step-%02d.log", step.N))
	start := func(extra []string) (*bench.Proc, error) {
		return bench.StartServer(ctx, bin, append(sc.Endpoints().Env(), extra...), plan, logPath)
	}
	// One server for the variants that share it, started on first use.
	var shared *bench.Proc
	defer func() {
		if shared != nil {
			err = errors.Join(err, shared.Stop())
		}
	}()
	if step.Worker && env.Pool != nil {
		defer startWorker(ctx, env.Pool, p)()
	}

	kind := sc.ResolveKind()
	if len(step.Services) == 0 {
		kind = "none"
	}
	res := &bench.Result{Step: step.N, Slug: step.Slug, StartedAt: time.Now().UTC(), Machine: bench.ThisMachine(kind, plan),
		Params: map[string]any{"vus": o.VUs, "iterations": o.Iterations, "duration_s": o.Duration.Seconds(),
			"warmup_s": o.Warmup.Seconds(), "quick": quick, "tool": tool, "solution": solution()}}
	if slices.Contains(step.Services, stack.Mongo) {
		res.Machine.Mongo = sc.MongoDescription(kind)
	}
	if mongo := os.Getenv("PEAKLOAD_MONGO_URL"); mongo != "" {
		res.Params["mongo_url"] = mongo
	}
	rounds := max(step.Rounds, 1)
	if quick {
		rounds = 1 // a smoke test: interleaving is for measurements
	}
	if rounds > 1 && os.Getenv("DURATION") == "" && o.Iterations == 0 {
		o.Duration /= time.Duration(rounds) // the same time per row, in interleaved rounds
	}
	fmt.Fprintf(os.Stderr, "step %d — %s: %d VUs, %s per variant after a %s warm-up, %d round(s) (server log: %s)\n",
		step.N, step.Slug, o.VUs, describe(o), o.Warmup, rounds, logPath)
	o.Progress = os.Stderr
	variants := step.Variants(env)
	skipped := map[string]bool{}
	for round := 1; round <= rounds; round++ {
		if rounds > 1 {
			fmt.Fprintf(os.Stderr, "round %d of %d\n", round, rounds)
		}
		for _, v := range variants {
			server := strings.Join(v.Server, " ") // "FRAMEWORK=fasthttp"
			if skipped[server] {
				continue
			}
			srv := shared
			if v.Server != nil {
				p, serr := start(v.Server)
				if serr != nil && v.Optional {
					skipped[server] = true
					res.Notes = append(res.Notes, fmt.Sprintf("the rows of %s skipped: that server did not start (%s)", server, lastLine(serr)))
					continue
				}
				if serr != nil {
					return fmt.Errorf("%s: %w", v.Name, serr)
				}
				srv = p
			} else if srv == nil {
				if shared, err = start(nil); err != nil {
					return err
				}
				srv = shared
			}
			o.Target = srv.Target
			r, err := bench.Measure(ctx, o, v, plan, sc.Dir)
			r.ServerPeakRSSMB = srv.PeakRSSMB()
			if srv != shared {
				err = errors.Join(err, srv.Stop())
			}
			if err != nil {
				return fmt.Errorf("%s: %w\nserver log:\n%s", v.Name, err, srv.Log(10))
			}
			keepBest(res, r, rounds)
		}
	}
	res.Claims = step.Claims(res, env)
	if step.Tables != nil {
		res.Tables = step.Tables(res)
	}
	if quick {
		res.Notes = append(res.Notes, "QUICK=1: a few seconds per variant — a smoke test, not a measurement")
	}
	res.Print(os.Stdout)
	path, err := res.Write(resultsDir())
	if err != nil {
		return err
	}
	fmt.Printf("\nwrote %s\n", path)
	return nil
}

// keepBest adds a run, or with several rounds keeps the faster of it and
// the variant's earlier run: on a shared machine noise (a neighbour, a
// frequency dip) only ever slows a run down. Errors add up over the rounds,
// and the slowest round's req/s stays visible in the extras.
func keepBest(res *bench.Result, r bench.Run, rounds int) {
	if rounds > 1 {
		extra := map[string]float64{}
		maps.Copy(extra, r.Extra)
		extra["rounds"], extra["rps_worst_round"] = 1, r.RPS
		r.Extra = extra
	}
	prev := res.Find(r.Variant)
	if prev == nil {
		res.Runs = append(res.Runs, r)
		return
	}
	best := r
	if prev.RPS > r.RPS {
		best = *prev
	}
	best.Errors = prev.Errors + r.Errors
	best.FirstError = cmp.Or(prev.FirstError, r.FirstError)
	best.Extra["rounds"] = prev.Extra["rounds"] + 1
	best.Extra["rps_worst_round"] = min(prev.Extra["rps_worst_round"], r.RPS)
	*prev = best
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
			return o, quick, fmt.Errorf("VUS=%q: want a positive integer", v)
		}
		o.VUs = n
	}
	if v := os.Getenv("ITERATIONS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return o, quick, fmt.Errorf("ITERATIONS=%q: want a positive integer", v)
		}
		o.Iterations = n
	}
	if v := os.Getenv("DURATION"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			s, err2 := strconv.ParseFloat(v, 64)
			if err2 != nil || s <= 0 {
				return o, quick, fmt.Errorf("DURATION=%q: want a duration like 10s", v)
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
		fmt.Fprintf(os.Stderr, "compiling %s into %s (the first time takes a while)…\n", step.Dir(), bin)
	}
	t0 := time.Now()
	cmd := exec.CommandContext(ctx, "go", append(args, "./"+step.Dir())...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("build %s: %w", step.Dir(), err)
	}
	if d := time.Since(t0); d > 3*time.Second {
		fmt.Fprintf(os.Stderr, "compiled %s in %.0f s\n", step.Dir(), d.Seconds())
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
