package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"github.com/peakload/workshop/internal/cli"
	"github.com/peakload/workshop/internal/course"
	"github.com/peakload/workshop/internal/drill"
	"github.com/peakload/workshop/internal/events"
	"github.com/peakload/workshop/internal/messages"
	"github.com/peakload/workshop/internal/params"
	"github.com/peakload/workshop/internal/proc"
	"github.com/peakload/workshop/internal/result"
	"github.com/peakload/workshop/internal/routes"
	"github.com/peakload/workshop/internal/scenario"
	"github.com/peakload/workshop/internal/stack"
)

// runDrill is `make step-N drill`: the step's failure drill, live, as its
// entry in internal/course declares it. Steps 6 and 7 (write path): load, MongoDB killed and restarted, SIGTERM to the
// server mid-load, then persisted against accepted. Step 2 (read path):
// Redis stopped mid-load and restarted.
func runDrill(ctx context.Context, cfg cli.Config, args []string) (err error) {
	step, err := cli.StepFlag("drill", args)
	if err != nil {
		return err
	}
	switch step.Drill {
	case course.ReadDrill:
		return readDrill(ctx, cfg, step)
	case course.WriteDrill:
		return writeDrill(ctx, cfg, step)
	}
	return fmt.Errorf("step %d has no drill (steps %s do)", step.N, course.List(course.Where(func(s course.Step) bool { return s.Drill != course.NoDrill })))
}

func writeDrill(ctx context.Context, cfg cli.Config, step scenario.Step) (err error) {
	sc := cfg.Stack
	var started []string
	if sc.ResolveKind() == "native" && sc.FerretOnPostgres() {
		if started, err = stack.Up(ctx, sc, stack.Postgres); err != nil {
			return err
		}
	}
	defer func() { err = errors.Join(err, cli.DownStarted(sc, started)) }()
	bin, err := buildStep(ctx, cfg, sc, step)
	if err != nil {
		return err
	}
	dir := filepath.Join(sc.Dir, fmt.Sprintf("drill-%02d", step.N))
	_ = os.RemoveAll(dir)
	mongo, err := drill.StartMongo(ctx, sc, fmt.Sprintf("drill_%02d", step.N), filepath.Join(dir, "mongo"))
	if err != nil {
		return err
	}
	defer mongo.Close()
	p := params.Load()
	d := drill.Writes{
		Mongo: mongo, Clients: 50, Phase: 3 * time.Second, KillMongo: true, Progress: os.Stderr,
		Server: func(ctx context.Context, url string) (*proc.Proc, error) {
			return proc.StartServer(ctx, bin, append(sc.Endpoints().Env(), "PEAKLOAD_MONGO_URL="+url), result.CPUPlan{}, filepath.Join(dir, "server.log"))
		},
	}
	route := routes.POST(routes.EventsBulk)
	if step.N == 6 {
		d.Idempotent, d.Guard = true, "retried events already stored: the _id set at accept time makes them no-ops"
		d.Poison = &drill.Poison{Orders: 50, Route: routes.EventsBulk}
		d.Request = func(*rand.Rand) (string, string, string) { return "POST", routes.EventsBulk, string(p.Event) }
		d.Persisted = func(ctx context.Context, url string) (int64, error) {
			return withStore(ctx, url, func(s *events.Store) (int64, error) { return s.Count(ctx) })
		}
	} else {
		route = routes.POST(routes.CountersReduce)
		d.Idempotent, d.Guard = true, "increments of a retried flush already applied: the batch number in each counter makes them no-ops"
		skew := scenario.Env{Params: p}.Skew()
		d.Request = func(r *rand.Rand) (string, string, string) {
			return "POST", routes.Prefix(routes.CountersReduce) + fmt.Sprintf("likes-%d", skew.Pick(r)), ""
		}
		d.Persisted = func(ctx context.Context, url string) (int64, error) {
			return withStore(ctx, url, func(s *events.Store) (int64, error) { return s.Counters().Variant("reduce").Sum(ctx) })
		}
	}
	fmt.Fprintf(os.Stderr, "step %d drill — %s, %s, on a private %s (server log: %s)\n",
		step.N, route, who(cfg), sc.MongoDescription(sc.ResolveKind(), messages.Current()), filepath.Join(dir, "server.log"))
	rep, err := d.Run(ctx)
	if err != nil {
		return err
	}
	poison := ""
	if d.Poison != nil {
		poison = fmt.Sprintf(", %d poison events (refused for good)", d.Poison.Orders)
	}
	fmt.Printf("\nstep %d drill — %d clients on %s; MongoDB killed and restarted%s, then SIGTERM to the server mid-load\n\n", step.N, d.Clients, route, poison)
	rep.Print(os.Stdout)
	if rep.Series != nil {
		res := drillResult(cfg, step, sc, result.Run{Variant: "drill", Route: route, Tool: "go", VUs: d.Clients, Series: rep.Series},
			fmt.Sprintf("%d clients; MongoDB killed and restarted%s, then SIGTERM to the server mid-load; accepted %d, persisted %d, dead-lettered %d",
				d.Clients, poison, rep.Accepted, rep.Persisted, rep.DeadLettered))
		path, err := writeDrillResult(res)
		if err != nil {
			return err
		}
		fmt.Printf("\n  wrote %s — `make report` draws the drill over time\n", path)
	}
	if !rep.OK() {
		return fmt.Errorf("the drill failed: persisted %d + dead-lettered %d, accepted %d, other 5xx %d", rep.Persisted, rep.DeadLettered, rep.Accepted, rep.ServerErrors)
	}
	return nil
}

func withStore(ctx context.Context, url string, f func(*events.Store) (int64, error)) (int64, error) {
	s, err := events.Open(ctx, url)
	if err != nil {
		return 0, err
	}
	defer s.Close(context.Background())
	return f(s)
}

// readDrill stops a private Redis under load on step 2's cached route and
// starts it again; PostgreSQL is the stack's, with its catalogue.
func readDrill(ctx context.Context, cfg cli.Config, step scenario.Step) (err error) {
	sc := cfg.Stack
	started, err := stack.Up(ctx, sc, stack.Postgres)
	defer func() { err = errors.Join(err, cli.DownStarted(sc, started)) }()
	if err != nil {
		return err
	}
	if err := cli.Seed(ctx, sc.Endpoints().PostgresURL); err != nil {
		return err
	}
	redisBin, err := stack.Require("redis-server", logf)
	if err != nil {
		return err
	}
	bin, err := buildStep(ctx, cfg, sc, step)
	if err != nil {
		return err
	}
	rdb, err := drill.StartRedis(ctx, redisBin)
	if err != nil {
		return err
	}
	defer rdb.Stop()
	dir := filepath.Join(sc.Dir, fmt.Sprintf("drill-%02d", step.N))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	skew := scenario.Env{Params: params.Load()}.Skew()
	d := drill.Reads{
		Redis: rdb, Clients: 50, Phase: 4 * time.Second, Progress: os.Stderr,
		Request: func(r *rand.Rand) (string, string, string) {
			return "GET", routes.Path(routes.Cached, int(skew.Pick(r))), ""
		},
		Server: func(ctx context.Context, addr string) (*proc.Proc, error) {
			return proc.StartServer(ctx, bin, append(sc.Endpoints().Env(), "PEAKLOAD_REDIS_ADDR="+addr), result.CPUPlan{}, filepath.Join(dir, "server.log"))
		},
	}
	fmt.Fprintf(os.Stderr, "step 2 drill — %s, %s; a private Redis on %s (server log: %s)\n", routes.GET(routes.Cached), who(cfg), rdb.Addr, filepath.Join(dir, "server.log"))
	rep, err := d.Run(ctx)
	if err != nil {
		return err
	}
	fmt.Printf("\nstep 2 drill — %d clients on %s; Redis stopped for %s, then started again (empty)\n\n", d.Clients, routes.GET(routes.Cached), d.Phase)
	rep.Print(os.Stdout)
	if rep.Series != nil {
		res := drillResult(cfg, step, sc, result.Run{Variant: "drill", Route: routes.GET(routes.Cached), Tool: "go", VUs: d.Clients, Series: rep.Series},
			fmt.Sprintf("%d clients; Redis stopped for %s after %s of load, then started again (empty); verdict: %s", d.Clients, d.Phase, d.Phase+d.Phase/2, map[bool]string{true: "0 5xx", false: "FAILED"}[rep.OK()]))
		path, err := writeDrillResult(res)
		if err != nil {
			return err
		}
		fmt.Printf("\n  wrote %s — `make report` draws the drill over time\n", path)
	}
	if !rep.OK() {
		return fmt.Errorf("the drill failed: reads answered 5xx while Redis was down")
	}
	return nil
}

func who(cfg cli.Config) string {
	if cfg.Solution {
		return "the reference (SOLUTION=1)"
	}
	return "your code"
}

// drillResult is a drill's run over time, as a results file the report
// draws: one row, the drill, whose series carries the drill's moments.
func drillResult(cfg cli.Config, step scenario.Step, sc stack.Config, run result.Run, note string) *result.Result {
	return &result.Result{Step: step.N, Slug: step.Slug, StartedAt: time.Now().UTC(),
		Machine: proc.ThisMachine(sc.ResolveKind(), result.CPUPlan{}),
		Params:  map[string]any{"drill": true, "solution": cfg.Solution}, Runs: []result.Run{run}, Notes: []string{note}}
}

// writeDrillResult saves results/drill/step-N/<UTC time>.json and latest.json.
func writeDrillResult(r *result.Result) (string, error) {
	return r.Write(filepath.Join(resultsDir(), "drill"))
}
