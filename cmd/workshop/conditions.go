package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/config"
	"github.com/peakload/workshop/internal/harness/latency"
	"github.com/peakload/workshop/internal/harness/result"
	"github.com/peakload/workshop/internal/harness/scenario"
	"github.com/peakload/workshop/internal/harness/stack"
)

// slowerNetwork reads LATENCY (e.g. 0.2ms) and, when set, puts a proxy
// holding every request that long between the step server and its
// PostgreSQL and Redis: the round trips of Docker Desktop or a slower
// laptop, on this machine. The bench's own connections stay direct.
func slowerNetwork(cfg config.Config, sc stack.Config, step scenario.Step) (stack.Endpoints, *latency.Stack, error) {
	eps := sc.Endpoints()
	d, err := latency.Parse(cfg.Latency)
	if err != nil || d == 0 || len(step.Services) == 0 {
		return eps, nil, err
	}
	self, err := os.Executable() // this workshop binary: `workshop latency-proxy`
	if err != nil {
		return eps, nil, err
	}
	wrapped, s, err := latency.Wrap(self, eps, d)
	if err != nil {
		return eps, nil, err
	}
	fmt.Fprint(os.Stderr, messages.T("latency.wrapped", cfg.Latency, s.Postgres.Addr, s.Redis.Addr, d))
	return wrapped, s, nil
}

// noteLatency records an added delay in the results, so a run with it is
// never read as a native one.
func noteLatency(res *result.Result, s *latency.Stack) {
	if s == nil {
		return
	}
	ms := s.Postgres.Delay.Seconds() * 1000
	res.Params["added_latency_ms"] = ms
	res.Notes = append(res.Notes, messages.English.T("note.latency", ms))
}

// announceStack says, before anything is measured, which stack the bench
// runs on and why: a learner must not find out from the table that the
// databases ran in containers.
func announceStack(sc stack.Config, step scenario.Step) {
	if len(step.Services) == 0 {
		return
	}
	kind, why := sc.Choice()
	fmt.Fprint(os.Stderr, messages.T("cli.stack", kind, why))
}

// runLatencyProxy is `workshop latency-proxy -target host:port -delay 0.2ms`:
// the proxy LATENCY starts, in a process of its own.
func runLatencyProxy(ctx context.Context, cfg config.Config, args []string) error {
	fs := flag.NewFlagSet("latency-proxy", flag.ExitOnError)
	target := fs.String("target", "", "host:port to forward to")
	delay := fs.Duration("delay", 200*time.Microsecond, "added to every round trip")
	_ = fs.Parse(args)
	if *target == "" {
		return errors.New(messages.T("latency.no_target"))
	}
	return latency.Serve(ctx, *target, *delay, os.Stdout)
}
