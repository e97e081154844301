package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/harness/config"
	"github.com/peakload/workshop/internal/harness/probe"
)

// runProbe is `make probe URL=…`: the bench's driver, table and results
// file pointed at a service of your own (internal/harness/probe). VUS, DURATION,
// QUICK, RUNS and CAPACITY mean what they mean for a step's bench.
func runProbe(ctx context.Context, settings config.Config, args []string) error {
	fs := flag.NewFlagSet("probe", flag.ContinueOnError)
	var svc serviceFlags
	err := svc.register(fs, settings.Verbs, "the service's URL, e.g. http://127.0.0.1:8080/items/1",
		"the service's Prometheus metrics URL, scraped at the window's edges",
		"load a host that is not this machine (yours, and only yours)")
	if err != nil {
		return err
	}
	requests := fs.String("requests", settings.Verbs.Requests, "a file of requests, one JSON object a line: {\"method\":\"POST\",\"path\":\"/x\",\"headers\":{},\"body\":\"…\"}")
	perReq := fs.String("per-request", settings.Verbs.PerRequest, "counters to divide by requests: comma-separated regular expressions over metric names")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if svc.URL == "" {
		return errors.New(messages.T("probe.usage"))
	}
	cfg, err := probeConfig(ctx, settings, svc.URL, *requests, svc.Metrics, *perReq, svc.AllowRemote)
	if err != nil {
		return err
	}
	fmt.Fprint(os.Stderr, messages.T("probe.start", svc.URL, cfg.Target.Base, cfg.VUs, cfg.Duration, cfg.Warmup, cfg.Rounds))
	res, err := probe.Run(ctx, cfg)
	if err != nil {
		return err
	}
	res.Tables = append(res.Tables, openLoopTables(res)...)
	res.Print(os.Stdout)
	path, err := res.WriteIn(filepath.Join(resultsDir(), "probe"))
	if err != nil {
		return err
	}
	fmt.Print(messages.T("probe.wrote", path, path))
	return nil
}

// probeConfig reads the bench's variables over the shared defaults, and
// checks the target before anything is sent.
func probeConfig(ctx context.Context, settings config.Config, target, requests, metrics, perReq string, remote bool) (probe.Config, error) {
	p := params.Load()
	o, rounds := loadOptions(settings, p), max(settings.Runs, 1)
	t, err := probe.Resolve(ctx, target, remote)
	if err != nil {
		return probe.Config{}, err
	}
	cfg := probe.Config{Target: t, VUs: o.VUs, Duration: o.Duration, Warmup: o.Warmup, Rounds: rounds,
		MetricsURL: metrics, MaxInFlight: p.Capacity.MaxInFlight, Progress: os.Stderr, NoPin: settings.NoPin}
	if metrics != "" { // the metrics are scraped from here too: the same rule
		if _, err := probe.Resolve(ctx, metrics, remote); err != nil {
			return cfg, err // it quotes the METRICS URL
		}
	}
	if requests != "" {
		if cfg.Requests, err = probe.ReadRequests(requests); err != nil {
			return cfg, err
		}
	}
	if cfg.PerRequest, err = probe.ParsePerRequest(perReq); err != nil {
		return cfg, err
	}
	if settings.Capacity {
		c := capacityConfig(p, settings.Quick)
		cfg.Capacity = &c
	}
	return cfg, nil
}
