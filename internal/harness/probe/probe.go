package probe

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/load"
	"github.com/peakload/workshop/internal/harness/proc"
	"github.com/peakload/workshop/internal/harness/result"
)

// Step is the step number a probe's results carry: not a step of the
// workshop, so `make compare` sets two probes side by side and the table
// names the probe instead of a step.
const Step = -1

// Bounds on what a probe may be asked: a load tool's loop must end.
const (
	MaxVUs      = 2000
	MaxDuration = 5 * time.Minute
	MaxRounds   = 20
)

// Config is one probe: what to load, how, and which counters to read.
type Config struct {
	Target   Target
	Requests []Request // empty: GET Target.Path
	VUs      int
	Duration time.Duration
	Warmup   time.Duration
	Rounds   int
	// Capacity, when set, searches each row's capacity after the closed loop.
	Capacity    *load.CapacityConfig
	MaxInFlight int
	// MetricsURL is the service's Prometheus text; PerRequest the counters
	// (regular expressions over metric names) divided by requests served.
	MetricsURL string
	PerRequest []*regexp.Regexp
	Progress   io.Writer
	NoPin      bool // PEAKLOAD_NO_PIN: the driver keeps every CPU
}

// Validate applies the bounds.
func (c *Config) Validate() error {
	switch {
	case c.VUs < 1 || c.VUs > MaxVUs:
		return errors.New(messages.T("probe.bad_vus", c.VUs, MaxVUs))
	case c.Duration <= 0 || c.Duration > MaxDuration:
		return errors.New(messages.T("probe.bad_duration", c.Duration, MaxDuration))
	case c.Rounds < 1 || c.Rounds > MaxRounds:
		return errors.New(messages.T("probe.bad_runs", c.Rounds, MaxRounds))
	case len(c.PerRequest) > 0 && c.MetricsURL == "":
		return errors.New(messages.T("probe.per_request_metrics"))
	}
	return nil
}

// ParsePerRequest reads --per-request: comma-separated regular
// expressions, each matching whole metric names.
func ParsePerRequest(s string) ([]*regexp.Regexp, error) {
	var out []*regexp.Regexp
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		re, err := regexp.Compile("^(?:" + p + ")$")
		if err != nil {
			return nil, errors.New(messages.T("probe.per_request_bad", p, err))
		}
		out = append(out, re)
	}
	return out, nil
}

// Variants are the table's rows: one per request.
func (c *Config) Variants() []load.Variant {
	reqs := c.Requests
	if len(reqs) == 0 {
		reqs = []Request{{Method: "GET", Path: c.Target.Path}}
	}
	same := map[string]int{}
	for _, r := range reqs {
		same[r.Name()]++
	}
	seen := map[string]int{}
	out := make([]load.Variant, 0, len(reqs))
	for _, r := range reqs {
		name := r.Name()
		if h := r.headerNote(); same[name] > 1 && h != "" {
			name += " (" + h + ")" // what tells it from its twin: "#2" hid an If-None-Match
		}
		if seen[name]++; seen[name] > 1 {
			name = fmt.Sprintf("%s #%d", name, seen[name])
		}
		uri, host := c.Target.Base+r.Path, c.Target.Host
		if len(r.Headers) == 0 {
			// A fixed request, written once and sent again and again, as
			// the bench's rows are: the same client cost per request.
			v := load.Variant{Name: course.Variant(name), Route: r.Name(), Method: r.Method, Path: r.Path, Host: host}
			if r.Body != "" {
				v.Body = []byte(r.Body) // sent as application/json
			}
			out = append(out, v)
			continue
		}
		out = append(out, load.Variant{Name: course.Variant(name), Route: r.Name(), Method: r.Method,
			Prepare: func(_ *load.VU, req *fasthttp.Request) {
				req.SetRequestURI(uri)
				for k, v := range r.Headers {
					req.Header.Set(k, v)
				}
				if r.Body != "" {
					req.SetBodyString(r.Body)
				}
				req.UseHostHeader = true
				req.Header.SetHost(host)
			}})
	}
	return out
}

// Run measures every row, in Rounds interleaved rounds, then (when asked)
// each row's capacity, and returns the results file's content.
func Run(ctx context.Context, c Config) (*result.Result, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	plan := proc.PlanCPUs(c.NoPin)
	if plan.Pinned { // the driver's CPUs, as the bench's: the service may be on the last one (make step-N run)
		if err := proc.Pin(os.Getpid(), plan.Driver); err != nil {
			return nil, err
		}
	}
	res := &result.Result{Step: Step, Slug: "probe of " + c.Target.Host + c.Target.Path, StartedAt: time.Now().UTC(),
		// The probe's own CPUs, so its client-busy column is of the CPUs it
		// ran on; the service's are not ours to know (no Server).
		Machine: proc.ThisMachine("external", result.CPUPlan{Driver: plan.Driver, Pinned: plan.Pinned}),
		Params: map[string]any{"url": "http://" + c.Target.Host + c.Target.Path, "address": c.Target.Base, "vus": c.VUs,
			"duration_s": c.Duration.Seconds(), "warmup_s": c.Warmup.Seconds(), "rounds": c.Rounds, "tool": "go", "metrics": c.MetricsURL}}
	res.Notes = append(res.Notes, probeNotes(c, plan)...)
	if err := c.checkMetrics(ctx); err != nil {
		return res, err
	}
	if err := c.TryFirst(ctx); err != nil {
		return res, err
	}
	o := c.options()
	all := make([][]result.Run, c.Rounds)
	for round := range c.Rounds {
		for _, v := range c.Variants() {
			r, err := c.measure(ctx, o, v, plan)
			if err != nil {
				return res, fmt.Errorf("%s: %w", v.Name, err)
			}
			if err := judge(r, o); err != nil {
				return res, err
			}
			all[round] = append(all[round], r)
		}
	}
	res.Runs = result.Combine(all, false)
	if c.Rounds > 1 {
		res.Rounds = all
	}
	if c.Capacity != nil {
		if err := c.capacities(ctx, o, plan, res); err != nil {
			return res, err
		}
	}
	return res, nil
}

func probeNotes(c Config, plan result.CPUPlan) []string {
	notes := []string{fmt.Sprintf("the service at %s is yours: whether it was pinned, and to which CPUs, is up to how you started it", c.Target.Base), Rules()}
	if plan.Pinned {
		notes = append(notes, fmt.Sprintf("the probe ran on CPUs %v (the bench's driver CPUs); `make step-N run` puts a step server on CPU %v", plan.Driver, plan.Server))
	}
	if c.MetricsURL == "" {
		notes = append(notes, "no METRICS=: no server CPU, no per-request counters, and the client-bound flag rests on the probe's CPU alone")
	}
	return notes
}

// capacities searches each row's capacity, from its closed-loop req/s.
func (c Config) capacities(ctx context.Context, o load.Options, plan result.CPUPlan, res *result.Result) error {
	cfg := *c.Capacity
	res.Params["capacity_p99_ms"] = cfg.P99Ms
	for _, v := range c.Variants() {
		closed := res.Find(v.Name)
		probe := func(rate float64) (result.Run, error) {
			p := o
			p.Rate, p.MaxInFlight, p.Duration, p.Warmup = rate, cfg.InFlight(rate, o.VUs, c.MaxInFlight), cfg.Probe, cfg.Warmup
			r, err := c.measure(ctx, p, v, plan)
			time.Sleep(200 * time.Millisecond)
			return r, err
		}
		found, err := load.SearchCapacity(ctx, cfg, closed.RPS, probe)
		if err != nil {
			return fmt.Errorf("%s: capacity: %w", v.Name, err)
		}
		found.Variant, found.Route, found.ClosedRPS, found.ClosedP99 = v.Name, v.Route, closed.RPS, closed.Latency.P99
		res.Capacity = append(res.Capacity, found)
	}
	return nil
}

// measure is load.Measure for a service that is not ours: the Go driver
// (closed loop, or open when o.Rate is set), the probe's own CPU over the
// window, and the service's counters scraped at the window's edges.
func (c Config) measure(ctx context.Context, o load.Options, v load.Variant, plan result.CPUPlan) (result.Run, error) {
	var before, after proc.Counters
	var scrapeErr error
	var cpu0, cpu1 time.Duration
	mark := func(phase string) {
		if phase != "start" {
			cpu1 = proc.SelfCPU()
		}
		var got proc.Counters
		if c.MetricsURL != "" {
			var err error
			if got, err = proc.ScrapeURL(ctx, c.MetricsURL); err != nil {
				scrapeErr = err
			}
		}
		if phase == "start" {
			before, cpu0 = got, proc.SelfCPU()
		} else {
			after = got
		}
	}
	var r result.Run
	var err error
	if o.Rate > 0 {
		r, err = load.DriveOpen(ctx, o, v, mark)
	} else {
		r, err = load.Drive(ctx, o, v, mark)
	}
	if err != nil {
		return r, err
	}
	if scrapeErr != nil {
		return r, errors.New(messages.T("probe.metrics_failed", c.MetricsURL, scrapeErr))
	}
	if r.Requests > 0 {
		r.ClientCPUus = float64((cpu1 - cpu0).Microseconds()) / float64(r.Requests)
		perRequest(&r, before, after, c.PerRequest)
	}
	flagClientBound(&r, plan)
	return r, nil
}

// perRequest divides the named counters' change over the window by the
// requests the probe counted in it, and reads the server's CPU when the
// service exports Prometheus's process_cpu_seconds_total.
func perRequest(r *result.Run, before, after proc.Counters, names []*regexp.Regexp) {
	n := float64(r.Requests)
	if cpu := proc.Delta(before, after, "process_cpu_seconds_total"); cpu > 0 {
		r.PerRequest.ServerCPUus = cpu * 1e6 / n
	}
	var keys []string
	for k := range after {
		if strings.Contains(k, "{") {
			continue // the name's sum over its labels is the counter
		}
		for _, re := range names {
			if re.MatchString(k) {
				keys = append(keys, k)
				break
			}
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		if r.Extra == nil {
			r.Extra = map[result.Key]float64{}
		}
		r.Extra[result.PerRequestOf(k)] = proc.Delta(before, after, k) / n
	}
}

// flagClientBound is the bench's rule (internal/harness/result/client.go) where the
// server's CPU is known; without it, the probe's own CPUs saturated is
// enough to flag the row: the figure may then be the probe's limit.
func flagClientBound(r *result.Run, plan result.CPUPlan) {
	cpus := len(plan.Driver)
	if !plan.Pinned || cpus == 0 {
		cpus = runtime.NumCPU()
	}
	client := r.RPS * r.ClientCPUus / 1e6 / float64(cpus)
	server := r.RPS * r.PerRequest.ServerCPUus / 1e6 // the service's CPUs are unknown: one, at least
	r.ClientBound = client >= result.ClientBusyLimit && (r.PerRequest.ServerCPUus == 0 || server < result.ServerIdleLimit)
}
