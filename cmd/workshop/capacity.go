package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/harness/config"
	"github.com/peakload/workshop/internal/harness/load"
	"github.com/peakload/workshop/internal/harness/result"
	"github.com/peakload/workshop/internal/harness/scenario"
)

// The open loop from the command line: ARRIVAL=rate RATE=N runs every
// variant on an arrival-rate schedule instead of closed-loop users, and
// CAPACITY=1 searches, after the closed-loop table, the highest rate each
// variant serves with its p99 under the step's bound (internal/harness/load's
// openloop.go and capacity.go say why both exist).

// arrival sets o's schedule when ARRIVAL=rate (config.Config checked ARRIVAL
// and RATE). Only the Go driver keeps a schedule (wrk is closed-loop), so
// an open loop runs on it alone.
func arrival(cfg config.Config, o *load.Options, p params.Params, tool string) (string, error) {
	if cfg.Arrival != "rate" {
		return tool, nil
	}
	switch tool {
	case "", "go":
	case "k6":
		return tool, errors.New(messages.T("capacity.arrival_k6"))
	default:
		return tool, errors.New(messages.T("capacity.arrival_closed", tool))
	}
	o.Rate, o.MaxInFlight = cfg.Rate, p.Capacity.MaxInFlight
	return "go", nil
}

// capacityConfig is the search's bound and budget from the parameters.
func capacityConfig(p params.Params, quick bool) load.CapacityConfig {
	secs := func(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
	c := p.Capacity
	cfg := load.CapacityConfig{P99Ms: c.P99Ms, Probe: secs(c.ProbeS), Warmup: secs(c.WarmupS), Bisections: c.Bisections, Brackets: c.Brackets}
	if quick {
		cfg.Probe, cfg.Warmup, cfg.Bisections = secs(c.QuickProbeS), secs(c.QuickWarmupS), c.QuickBisections
	}
	return cfg
}

// capacityVariants are the variants a search runs on: the step's list, or
// every variant the Go driver loads over HTTP on its own schedule.
func capacityVariants(step scenario.Step, env scenario.Env) []load.Variant {
	var out []load.Variant
	for _, v := range step.Variants(env) {
		// An original (ORIGINAL=1) exports no /metrics, which each probe
		// reads: its capacity is not searched, its closed loop still runs.
		plain := (v.Tool == "" || v.Tool == "go") && v.Direct == nil && !v.Settle && v.Pace == 0 && v.Original == nil
		if plain && (len(step.Capacity) == 0 || slices.Contains(step.Capacity, v.Name)) {
			out = append(out, v)
		}
	}
	return out
}

// measureCapacity runs the capacity search of every capacity variant
// (CAPACITY=1), each from its closed-loop req/s, into res.Capacity.
func measureCapacity(ctx context.Context, settings config.Config, step scenario.Step, env scenario.Env, o load.Options, srvs *servers, dir string, res *result.Result) error {
	if !settings.Capacity {
		return nil
	}
	cfg := capacityConfig(env.Params, env.Quick)
	res.Params["capacity_p99_ms"] = cfg.P99Ms
	res.Params["capacity_probe_s"] = cfg.Probe.Seconds()
	fmt.Fprint(os.Stderr, messages.T("capacity.start", cfg.P99Ms, cfg.Probe, cfg.Warmup))
	for _, v := range capacityVariants(step, env) {
		closed := res.Find(v.Name)
		if closed == nil {
			continue // an optional server that did not start
		}
		srv, own, err := srvs.forVariant(v)
		if err != nil {
			return fmt.Errorf("%s: capacity: %w", v.Name, err)
		}
		probe := func(rate float64) (result.Run, error) {
			p := o
			p.Rate, p.MaxInFlight, p.Duration, p.Warmup, p.Iterations = rate, cfg.InFlight(rate, o.VUs, env.Params.Capacity.MaxInFlight), cfg.Probe, cfg.Warmup, 0
			p.Target = srv.Target
			r, err := load.Measure(ctx, p, v, srvs.plan, dir)
			v.Setup = nil // the cache warmed by the first probe stays warm for the next
			time.Sleep(200 * time.Millisecond)
			return r, err
		}
		c, err := load.SearchCapacity(ctx, cfg, closed.RPS, probe)
		if own {
			err = errors.Join(err, srv.Stop())
		}
		if err != nil {
			return fmt.Errorf("%s: capacity: %w\nserver log:\n%s", v.Name, err, srv.Log(10))
		}
		c.Variant, c.Route, c.ClosedRPS, c.ClosedP99 = v.Name, v.Route, closed.RPS, closed.Latency.P99
		res.Capacity = append(res.Capacity, c)
	}
	return nil
}

// openLoopTables are the open loop's tables: the runs of ARRIVAL=rate, and
// the capacity searches with their probes.
func openLoopTables(res *result.Result) []result.Table {
	var out []result.Table
	en := messages.English // stored in English, said in the reader's language by result.Table.Print
	arrival := result.Table{Title: en.T("table.arrival.title"),
		Header: append(en.Words("table.col.variant", "table.col.scheduled", "table.col.achieved", "table.col.missed", "table.arrival.not_sent", "table.arrival.in_flight"),
			"p50 ms", "p99 ms", "max ms")}
	for _, r := range res.Runs {
		if a := r.Arrival; a != nil {
			arrival.Rows = append(arrival.Rows, []string{string(r.Variant), fmt.Sprintf("%.0f", a.IntendedRPS), fmt.Sprintf("%.0f", a.AchievedRPS),
				fmt.Sprintf("%d (%.1f%%)", a.Missed, 100*a.MissedShare()), strconv.FormatInt(a.NotSent, 10), strconv.Itoa(a.InFlightUsed),
				fmt.Sprintf("%.2f", r.Latency.P50), fmt.Sprintf("%.2f", r.Latency.P99), fmt.Sprintf("%.1f", r.Latency.Max)})
		}
	}
	if len(arrival.Rows) > 0 {
		arrival.Notes = []string{en.T("table.arrival.note", load.LateAfter)}
		out = append(out, arrival)
	}
	if len(res.Capacity) == 0 {
		return out
	}
	bound := res.Capacity[0].P99BoundMs
	capacity := result.Table{Title: en.T("table.capacity.title", bound),
		Header: []string{en.T("table.col.variant"), en.T("table.capacity.closed"), en.T("table.capacity.closed_p99"), "capacity req/s",
			en.T("table.capacity.ratio"), en.T("table.capacity.its_p99"), en.T("table.capacity.failed_at"), en.T("table.capacity.probes")}}
	probes := result.Table{Title: en.T("table.probes.title"),
		Header: append(en.Words("table.col.variant", "table.col.scheduled", "table.col.achieved", "table.col.missed"), "p50 ms", "p99 ms",
			en.T("table.probes.served"), en.T("table.probes.why"))}
	served := map[bool]string{true: en.T("table.probes.yes"), false: en.T("table.probes.no")}
	for _, c := range res.Capacity {
		p99, failed := "-", en.T("table.capacity.none")
		if c.Above > 0 {
			failed = fmt.Sprintf("%.0f", c.Above)
		}
		for _, p := range c.Probes {
			if p.OK && p.Rate == c.RPS {
				p99 = fmt.Sprintf("%.2f", p.Run.Latency.P99)
			}
			a := p.Run.Arrival
			probes.Rows = append(probes.Rows, []string{string(c.Variant), fmt.Sprintf("%.0f", p.Rate), fmt.Sprintf("%.0f", a.AchievedRPS),
				fmt.Sprintf("%.1f%%", 100*a.MissedShare()), fmt.Sprintf("%.2f", p.Run.Latency.P50), fmt.Sprintf("%.2f", p.Run.Latency.P99),
				served[p.OK], p.Why})
		}
		capacity.Rows = append(capacity.Rows, []string{string(c.Variant), fmt.Sprintf("%.0f", c.ClosedRPS), fmt.Sprintf("%.2f", c.ClosedP99),
			capacityFigure(c), capacityRatio(c), p99, failed, strconv.Itoa(len(c.Probes))})
	}
	capacity.Notes = append(capacity.Notes, en.Words("table.capacity.note_closed", "table.capacity.note_omission", "table.capacity.note_open")...)
	return append(out, capacity, probes)
}

// capacityFigure is the capacity column: a rate, or why there is none.
func capacityFigure(c result.Capacity) string {
	switch {
	case c.RPS == 0 && len(c.Probes) > 0:
		lowest := c.Probes[0].Rate
		for _, p := range c.Probes {
			lowest = min(lowest, p.Rate)
		}
		return fmt.Sprintf("< %.0f", lowest)
	case c.Above == 0:
		return fmt.Sprintf("≥ %.0f", c.RPS)
	}
	return fmt.Sprintf("%.0f", c.RPS)
}

// capacityRatio is capacity ÷ closed: "-" when no rate was served (the
// capacity is "< lowest probed"; 0.00 would read as a measured ratio).
func capacityRatio(c result.Capacity) string {
	if c.RPS == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", c.RPS/max(c.ClosedRPS, 1))
}
