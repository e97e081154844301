package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"github.com/peakload/workshop/internal/given/events"
	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/given/routes"
	"github.com/peakload/workshop/internal/harness/config"
	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/drill"
	"github.com/peakload/workshop/internal/harness/proc"
	"github.com/peakload/workshop/internal/harness/result"
	"github.com/peakload/workshop/internal/harness/scenario"
	"github.com/peakload/workshop/internal/harness/stack"
	"github.com/peakload/workshop/internal/harness/stepflag"
)

// runDrill is `make step-N drill`: the step's failure drill, live, as its
// entry in internal/harness/course declares it. Steps 6 and 7 (write path): load, MongoDB killed and restarted, SIGTERM to the
// server mid-load, then persisted against accepted. Step 2 (read path):
// Redis stopped mid-load and restarted.
func runDrill(ctx context.Context, cfg config.Config, args []string) (err error) {
	step, err := stepflag.Parse("drill", args)
	if err != nil {
		return err
	}
	switch step.Drill {
	case course.ReadDrill:
		return readDrill(ctx, cfg, step)
	case course.WriteDrill:
		return writeDrill(ctx, cfg, step)
	}
	return errors.New(messages.T("drill.none", step.N, course.List(course.Where(func(s course.Step) bool { return s.Drill != course.NoDrill }))))
}

func writeDrill(ctx context.Context, cfg config.Config, step scenario.Step) (err error) {
	sc := cfg.Stack
	var started []string
	if sc.ResolveKind() == "native" && sc.FerretOnPostgres() {
		if started, err = stack.Up(ctx, sc, stack.Postgres); err != nil {
			return err
		}
	}
	defer func() { err = errors.Join(err, stack.DownStarted(sc, started)) }()
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
	d := drill.Writes{
		Mongo: mongo, Clients: 50, Phase: 3 * time.Second, KillMongo: true, Progress: os.Stderr,
		Server: func(ctx context.Context, url string) (*proc.Proc, error) {
			return proc.StartServer(ctx, bin, append(sc.Endpoints().Env(), "PEAKLOAD_MONGO_URL="+url), result.CPUPlan{}, filepath.Join(dir, "server.log"))
		},
	}
	route := writeTraffic(&d, step, params.Load())
	fmt.Fprint(os.Stderr, messages.T("drill.write_start",
		step.N, route, who(cfg), sc.MongoDescription(sc.ResolveKind(), messages.Current()), filepath.Join(dir, "server.log")))
	rep, err := d.Run(ctx)
	if err != nil {
		return err
	}
	// The results file keeps its note in English; the screen says it in the run's language.
	poison, poisonSaid := "", ""
	if d.Poison != nil {
		poison = fmt.Sprintf(", %d poison events (refused for good)", d.Poison.Orders)
		poisonSaid = messages.T("drill.poison_part", d.Poison.Orders)
	}
	fmt.Print(messages.T("drill.write_head", step.N, d.Clients, route, poisonSaid))
	rep.Print(os.Stdout)
	if rep.Series != nil {
		res := drillResult(cfg, step, sc, result.Run{Variant: "drill", Route: route, Tool: "go", VUs: d.Clients, Series: rep.Series},
			fmt.Sprintf("%d clients; MongoDB killed and restarted%s, then SIGTERM to the server mid-load; accepted %d, persisted %d, dead-lettered %d",
				d.Clients, poison, rep.Accepted, rep.Persisted, rep.DeadLettered))
		path, err := writeDrillResult(res)
		if err != nil {
			return err
		}
		fmt.Print(messages.T("drill.wrote", path))
	}
	if !rep.OK() {
		return errors.New(messages.T("drill.write_failed", rep.Persisted, rep.DeadLettered, rep.Accepted, rep.ServerErrors))
	}
	return nil
}

// writeTraffic sets what d's clients send and how what they were told was
// accepted is counted in the database: step 6's events (and its poison
// phase), step 7's counter increments. It returns the route, for the report.
func writeTraffic(d *drill.Writes, step scenario.Step, p params.Params) (route string) {
	if step.N == 6 {
		d.Idempotent, d.Guard = true, messages.T("drill.guard_events")
		d.Poison = &drill.Poison{Orders: 50, Route: "/events/bulk"}
		d.Request = func(*rand.Rand) (string, string, string) { return "POST", "/events/bulk", string(p.Event) }
		d.Persisted = func(ctx context.Context, url string) (int64, error) {
			return withStore(ctx, url, func(s *events.Store) (int64, error) { return s.Count(ctx) })
		}
		return "POST /events/bulk"
	}
	d.Idempotent, d.Guard = true, messages.T("drill.guard_counters")
	skew := scenario.Env{Params: p}.Skew()
	d.Request = func(r *rand.Rand) (string, string, string) {
		return "POST", fmt.Sprintf("/counters/reduce/likes-%d", skew.Pick(r)), ""
	}
	d.Persisted = func(ctx context.Context, url string) (int64, error) {
		return withStore(ctx, url, func(s *events.Store) (int64, error) { return s.Counters().Variant("reduce").Sum(ctx) })
	}
	return "POST /counters/reduce/:id"
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
func readDrill(ctx context.Context, cfg config.Config, step scenario.Step) (err error) {
	sc := cfg.Stack
	started, err := stack.Up(ctx, sc, stack.Postgres)
	defer func() { err = errors.Join(err, stack.DownStarted(sc, started)) }()
	if err != nil {
		return err
	}
	if err := stack.Seed(ctx, sc.Endpoints().PostgresURL); err != nil {
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
	fmt.Fprint(os.Stderr, messages.T("drill.read_start", routes.GET(routes.Cached), who(cfg), rdb.Addr, filepath.Join(dir, "server.log")))
	rep, err := d.Run(ctx)
	if err != nil {
		return err
	}
	fmt.Print(messages.T("drill.read_head", d.Clients, routes.GET(routes.Cached), d.Phase))
	rep.Print(os.Stdout)
	if rep.Series != nil {
		res := drillResult(cfg, step, sc, result.Run{Variant: "drill", Route: routes.GET(routes.Cached), Tool: "go", VUs: d.Clients, Series: rep.Series},
			fmt.Sprintf("%d clients; Redis stopped for %s after %s of load, then started again (empty); verdict: %s", d.Clients, d.Phase, d.Phase+d.Phase/2, map[bool]string{true: "0 5xx", false: "FAILED"}[rep.OK()]))
		path, err := writeDrillResult(res)
		if err != nil {
			return err
		}
		fmt.Print(messages.T("drill.wrote", path))
	}
	if !rep.OK() {
		return errors.New(messages.T("drill.read_failed"))
	}
	return nil
}

func who(cfg config.Config) string {
	if cfg.Solution {
		return messages.T("drill.reference")
	}
	return messages.T("drill.yours")
}

// drillResult is a drill's run over time, as a results file the report
// draws: one row, the drill, whose series carries the drill's moments.
func drillResult(cfg config.Config, step scenario.Step, sc stack.Config, run result.Run, note string) *result.Result {
	return &result.Result{Step: step.N, Slug: step.Slug, StartedAt: time.Now().UTC(),
		Machine: proc.ThisMachine(sc.ResolveKind(), result.CPUPlan{}),
		Params:  map[string]any{"drill": true, "solution": cfg.Solution}, Runs: []result.Run{run}, Notes: []string{note}}
}

// writeDrillResult saves results/drill/step-N/<UTC time>.json and latest.json.
func writeDrillResult(r *result.Result) (string, error) {
	return r.Write(filepath.Join(resultsDir(), "drill"))
}
