package audit

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/load"
	"github.com/peakload/workshop/internal/harness/probe"
	"github.com/peakload/workshop/internal/harness/proc"
	"github.com/peakload/workshop/internal/harness/result"
)

// The burst (steps 4–6): beyond what a service can serve, it either sheds
// the excess at once (503 with Retry-After: the client knows when to come
// back, and the requests it does serve stay fast) or queues it, and every
// request waits behind the queue until timeouts pile up. An open loop shows
// which: requests keep arriving on schedule whatever the answers do.
//
// The verdict judges the service, not the machine: the load runs on the
// bench's driver CPUs (a step server started by `make step-N run` is on
// its own), a 503 counts as shedding only if the service served half its
// own rate cleanly just before (else it refuses what it cannot sustain,
// not a burst), and a queue is blamed on the service only when its CPU
// (-metrics) shows it saturated. On a busy machine the evidence counts the
// machine's share within the same run — requests the load tool itself sent
// late with a connection free (result.Arrival.Stalled), baseline windows
// far apart — and a verdict those can explain reads "not judged", naming
// them: never ✗ for the machine's stall.

// burstStep is the step column of the burst's findings: a function, since a
// package-level variable is set before init registers the audit's texts.
func burstStep() string { return english("table.audit.s_burst") }

// shedCount counts, over a run's timed window, the answers that shed
// load: the warm-up's are not the run's (a cold start's odd 503).
type shedCount struct {
	counting         atomic.Bool
	shed, retryAfter atomic.Int64
}

func (n *shedCount) reset() (shed, withRetry int64) {
	n.counting.Store(false)
	return n.shed.Swap(0), n.retryAfter.Swap(0)
}

// mark is a run's window edges: counting from "start" on.
func (n *shedCount) mark(phase string) { n.counting.Store(phase == "start") }

func (c Config) burstVariant(n *shedCount) load.Variant {
	req := probe.Request{Method: "GET", Path: c.Target.Path}
	if c.BurstPost {
		req = probe.Request{Method: "POST", Path: c.Post, Body: c.Body, Headers: map[string]string{"Content-Type": "application/json"}}
	}
	v := (&probe.Config{Target: c.Target, Requests: []probe.Request{req}}).Variants()[0]
	v.Check = func(_ *load.VU, resp *fasthttp.Response) error {
		code := resp.StatusCode()
		if code == fasthttp.StatusServiceUnavailable && n.counting.Load() {
			n.shed.Add(1)
			if len(resp.Header.Peek("Retry-After")) > 0 {
				n.retryAfter.Add(1)
			}
		}
		if code >= 400 {
			return fmt.Errorf("HTTP %d", code)
		}
		return nil
	}
	return v
}

// burstSeen is what the burst observed, judged by shedVerdict.
type burstSeen struct {
	Base, Burst     result.Run
	BaseShed        int64        // 503s at half the closed loop's rate
	BaseWindows     []result.Run // the baseline's windows (baseline), nil in unit tests
	Shed, WithRetry int64        // 503s during the burst, and those with Retry-After
	ClientBusy      float64      // share of the driver's CPUs the audit used
	ServerBusy      float64      // CPUs the service used (process_cpu_seconds_total), -1 unknown
	P99Ms           float64
}

// HalfRateTolerance is the share of 503s the baseline, at half the rate
// the service served in the closed loop, may get before the service is
// said to refuse below its own rate: arrivals on a schedule still bunch
// when the machine stalls (a shared laptop: 6 of 146 seen), and a service
// that sheds at a fixed concurrency answers that odd bunch 503, as it
// should. A service that served its closed loop from a backlog it cannot
// sustain refuses far more than this at half the rate.
const HalfRateTolerance = 0.05

// shedVerdict judges the property: a deliberate 503 + Retry-After under
// overload, versus a queue (latency and timeouts growing). It says "not
// judged" when the evidence could be the machine's rather than the
// service's: the load tool's CPU is looked at first.
func shedVerdict(s burstSeen) (mark, verdict, why string) {
	notJudged := english("table.audit.not_judged")
	share := 1.0
	if s.Base.Requests > 0 {
		share = float64(s.BaseShed) / float64(s.Base.Requests)
	}
	switch {
	case s.ClientBusy >= result.ClientBusyLimit:
		return NotJudged, notJudged, "; " + english("table.audit.tool_busy", min(100, 100*s.ClientBusy))
	case s.BaseShed > 0 && share > HalfRateTolerance && arrival(s.Base).Stalled >= s.BaseShed:
		// The machine held the load tool's goroutines as often as the
		// service refused: it holds a service's on the same machine too.
		return NotJudged, notJudged, "; " + english("table.audit.stalled_503", s.BaseShed, s.Base.Requests, arrival(s.Base).Stalled)
	case s.BaseShed > 0 && share > HalfRateTolerance && !baseSteady(s):
		// A stall of the service lets the arrivals of its length meet it
		// at once: the 503s may answer the machine's stall, not the rate.
		bound, _ := recoveryBound(s.BaseWindows, s.Base.Latency.P99)
		return NotJudged, notJudged, "; " + english("table.audit.unsteady_503", s.BaseShed, s.Base.Requests, len(s.BaseWindows), p99List(s.BaseWindows), bound)
	case s.BaseShed > 0 && share > HalfRateTolerance && s.Base.Arrival.MissedShare() > SteadyMissed:
		// Requests that left late leave together: the 503s may answer the
		// load tool's bunches, not the service's own limit.
		return NotJudged, notJudged, "; " + english("table.audit.bunched", s.BaseShed, s.Base.Requests, 100*s.Base.Arrival.MissedShare())
	case s.BaseShed > 0 && share > HalfRateTolerance:
		return Missing, english("table.audit.refuses"), "; " + english("table.audit.below_rate", s.BaseShed, s.Base.Requests, 100*HalfRateTolerance)
	case s.BaseShed > 0:
		why = "; " + english("table.audit.odd_503", s.BaseShed, s.Base.Requests, 100*HalfRateTolerance)
	}
	mark, verdict, more := burstVerdict(s)
	return mark, verdict, why + more
}

// baseSteady says the baseline's windows were one level (recoveryBound):
// none far above their median, which a stall of the machine makes.
func baseSteady(s burstSeen) bool {
	_, steady := recoveryBound(s.BaseWindows, s.Base.Latency.P99)
	return steady
}

// burstVerdict is shedVerdict once the baseline was served: what the
// burst itself shows.
func burstVerdict(s burstSeen) (mark, verdict, why string) {
	notJudged := english("table.audit.not_judged")
	switch {
	case s.Shed > 0 && s.WithRetry == s.Shed:
		return Pass, english("table.audit.sheds"), ""
	case s.Shed > 0:
		return Missing, english("table.audit.no_retry_after"), ""
	case s.Burst.Latency.P99 <= s.P99Ms && s.Burst.Errors == 0:
		return NotJudged, english("table.audit.kept_up"), "; " + english("table.audit.no_burst_for_it", s.P99Ms)
	case s.ServerBusy < 0:
		return NotJudged, notJudged, "; " + english("table.audit.cpu_unknown")
	case s.ServerBusy < result.ServerIdleLimit && arrival(s.Burst).NotSent > 0:
		return NotJudged, notJudged, "; " + english("table.audit.fell_behind", arrival(s.Burst).NotSent, arrival(s.Burst).MaxInFlight, 100*s.ServerBusy)
	case s.ServerBusy < result.ServerIdleLimit:
		return NotJudged, notJudged, "; " + english("table.audit.not_saturated", 100*s.ServerBusy)
	}
	return Missing, english("table.audit.queues"), "; " + english("table.audit.queued", 100*s.ServerBusy)
}

// burst measures the closed loop's rate R, then opens: half of R for a
// baseline, twice R for c.Burst, then half of R again in half-second
// windows, each after a warm-up, until p99 is back near the baseline's
// (within RecoveryLimit).
func burst(ctx context.Context, c Config) ([]result.Run, []Finding) {
	shedding := Finding{Practice: english("table.audit.p_shed"), Step: burstStep()}
	recovery := Finding{Practice: english("table.audit.p_recover"), Step: burstStep(), Mark: NotJudged, Verdict: english("table.audit.not_judged")}
	plan, where, unpin := pinLoad(c.NoPin)
	defer unpin()
	var counts shedCount
	v := c.burstVariant(&counts)
	closed, err := load.Drive(ctx, load.Options{Target: c.Target.Base, VUs: 64, Duration: 2 * time.Second, Warmup: 500 * time.Millisecond, NoRetry: true}, v, func(string) {})
	closed.Variant = "closed loop (64 VUs)"
	rate := closed.RPS - float64(closed.Errors)/max(closed.DurationS, 1e-9) // what it served, not what it refused
	if err != nil || rate < 2 {
		shedding.Mark, shedding.Verdict, shedding.Evidence = NotJudged, recovery.Verdict, english("table.audit.no_rate", rate, err)
		recovery.Evidence = english("table.audit.no_burst")
		return []result.Run{closed}, []Finding{shedding, recovery}
	}
	// Each open-loop window is a fresh open loop: it warms up (connections
	// opened, senders started) before its window, or its first requests'
	// lateness would read as the service's; the burst alone starts cold,
	// as a burst does.
	open := func(name string, rate float64, d, warm, stall time.Duration) result.Run {
		r, _ := load.DriveOpen(ctx, load.Options{Target: c.Target.Base, VUs: 16, Rate: rate, Duration: d, Warmup: warm, StallAfter: stall, NoRetry: true}, v, counts.mark)
		r.Variant = course.Variant(name) // the audit's own rows, named for what it sends
		return r
	}
	counts.reset()
	bases, base := baseline(open, rate/2)
	s := burstSeen{Base: base, BaseWindows: bases, P99Ms: c.P99Ms}
	s.BaseShed, _ = counts.reset()
	cpu0, srv0, t0 := proc.SelfCPU(), c.serverCPU(ctx), time.Now()
	s.Burst = open("burst 2×", 2*rate, c.Burst, 0, 0)
	srv1, wall := c.serverCPU(ctx), time.Since(t0).Seconds() // the burst and the queue's drain after it
	s.ClientBusy = (proc.SelfCPU() - cpu0).Seconds() / wall / float64(driverCPUs(plan))
	s.ServerBusy = -1
	if srv0 >= 0 && srv1 >= 0 {
		s.ServerBusy = (srv1 - srv0) / wall
	}
	s.Shed, s.WithRetry = counts.reset()
	b := s.Burst
	shedding.Evidence = burstEvidence(where, rate, c.Burst, s)
	var why string
	shedding.Mark, shedding.Verdict, why = shedVerdict(s)
	shedding.Evidence += why
	runs := append(append([]result.Run{closed}, bases...), b)
	rec, recovery := c.recovery(ctx, open, plan, bases, base, recovery)
	return append(runs, rec...), []Finding{shedding, recovery}
}

// recovery runs the recovery windows after the burst and judges them
// against the baseline: only a steady baseline is a level to come back
// to, and p99s that stayed high are the service's only when neither the
// load tool's CPU (busy) nor a service idle on its own CPU (the machine's
// latency, or something it waits on) explains them.
func (c Config) recovery(ctx context.Context, open openLoop, plan result.CPUPlan, bases []result.Run, base result.Run, recovery Finding) ([]result.Run, Finding) {
	if base.Requests == 0 || float64(base.Errors) > HalfRateTolerance*float64(base.Requests) {
		recovery.Evidence = english("table.audit.no_baseline")
		return nil, recovery
	}
	if late := base.Arrival.MissedShare(); late > SteadyMissed {
		// The load tool could not keep the baseline's schedule: its p99 is
		// the tool's queue, no level of the service's to come back to.
		recovery.Evidence = english("table.audit.unsteady_baseline", 100*late, 100*SteadyMissed)
		return nil, recovery
	}
	bound, steady := recoveryBound(bases, base.Latency.P99)
	if !steady {
		recovery.Evidence = english("table.audit.spread_baseline", len(bases), p99List(bases), bound)
		return nil, recovery
	}
	rate := base.Arrival.IntendedRPS
	cpu0, srv0, t0 := proc.SelfCPU(), c.serverCPU(ctx), time.Now()
	margin := time.Duration((bound - base.Latency.P99) * float64(time.Millisecond))
	rec, ok, took := recoverAfter(ctx, open, rate, bound, margin)
	srv1, wall := c.serverCPU(ctx), time.Since(t0).Seconds()
	busy := (proc.SelfCPU() - cpu0).Seconds() / wall / float64(driverCPUs(plan))
	recovery.Evidence = english("table.audit.recovery", rate, recoveryWarmup, p99List(rec), base.Latency.P99, len(bases), p99List(bases))
	switch {
	case ok:
		recovery.Mark, recovery.Verdict = Pass, english("table.audit.recovered", took.Round(100*time.Millisecond))
	case stalledWindow(rec, bound) >= 0:
		i := stalledWindow(rec, bound)
		a := arrival(rec[i])
		recovery.Evidence += "; " + english("table.audit.stalled_recovery", i+1, a.Stalled, a.Scheduled, float64(margin)/float64(time.Millisecond), a.StalledMaxMs, rec[i].Latency.P99, bound)
	case busy >= result.ClientBusyLimit:
		// p99s the load tool's own CPU kept high are not the service's.
		recovery.Evidence += "; " + english("table.audit.tool_busy", min(100, 100*busy))
	case srv0 >= 0 && srv1 >= 0 && (srv1-srv0)/wall < result.ServerIdleLimit:
		recovery.Evidence += "; " + english("table.audit.idle_recovery", 100*(srv1-srv0)/wall)
	default:
		recovery.Mark, recovery.Verdict = Missing, english("table.audit.not_recovered", RecoveryLimit)
	}
	return rec, recovery
}

// burstEvidence is what the burst saw, before its verdict's why: where the
// load ran, the closed loop's rate, the baseline and the burst.
func burstEvidence(where string, rate float64, d time.Duration, s burstSeen) string {
	base, b := s.Base, s.Burst
	return english("table.audit.burst", where, rate, rate/2, base.Latency.P99, base.Errors, s.BaseShed,
		2*rate, d, b.Requests, s.Shed, s.WithRetry, max(0, b.Errors-s.Shed), arrival(b).NotSent, b.Latency.P99, b.Latency.Max)
}

// pinLoad puts this process on the bench's driver CPUs, as `make step-N
// bench` and `make probe` do: a step server (make step-N run, or the
// tests' stepServer) is then alone on its CPU, and a queue the burst sees
// is the service's, not the load tool's competing for the same core. The
// returned func gives the process every CPU back (the bench's unpin).
func pinLoad(noPin bool) (plan result.CPUPlan, where string, unpin func()) {
	plan = proc.PlanCPUs(noPin)
	unpin = func() {}
	if !plan.Pinned {
		return plan, english("table.audit.where_all", runtime.NumCPU()), unpin
	}
	if err := proc.Pin(os.Getpid(), plan.Driver); err != nil {
		return result.CPUPlan{}, english("table.audit.where_failed", runtime.NumCPU(), err), unpin
	}
	all := make([]int, runtime.NumCPU())
	for i := range all {
		all[i] = i
	}
	unpin = func() { _ = proc.Pin(os.Getpid(), all) }
	return plan, english("table.audit.where_driver", plan.Driver, plan.Server), unpin
}

func driverCPUs(plan result.CPUPlan) int {
	if plan.Pinned && len(plan.Driver) > 0 {
		return len(plan.Driver)
	}
	return runtime.NumCPU()
}

// RecoveryLimit is how long after the burst p99 may take to come back,
// recoveryWindow and recoveryWarmup each recovery (and baseline) window's
// length and warm-up, baselineWindows how many windows the baseline is,
// and SteadyMissed the share of the baseline's requests that may leave
// late (the load tool behind its schedule) for it to be a steady level to
// recover to.
const (
	RecoveryLimit   = 5 * time.Second
	recoveryWindow  = 500 * time.Millisecond
	recoveryWarmup  = 250 * time.Millisecond
	baselineWindows = 3
	SteadyMissed    = 0.10
)

// openLoop runs one open-loop window: its name, rate, length, warm-up,
// and how late the load tool may send a request on its own before it
// counts as stalled (result.Arrival.Stalled; 0: load.LateAfter).
type openLoop func(name string, rate float64, d, warm, stall time.Duration) result.Run

// StalledShare is the share of a recovery window's requests that may leave
// later than the bound's margin through the load tool's own delay before
// its p99 is called the machine's: a p99 is the slowest 1%, so from 1% on
// those requests alone can make it.
const StalledShare = 0.01

// stalledWindow is the first recovery window whose p99 the load tool's own
// delays can explain, -1 when none: StalledShare of its requests stalled
// past the margin, and its p99 within bound once the longest of those
// delays is taken off (a stall adds at most its own length to a request's
// latency: a p99 a second above the bound is the service's, whatever
// stalled a few ms). A window the machine spoiled might have been the one
// that came back, so "not recovered" would judge the machine.
func stalledWindow(rec []result.Run, bound float64) int {
	for i, r := range rec {
		a := arrival(r)
		if a.Scheduled > 0 && float64(a.Stalled) >= StalledShare*float64(a.Scheduled) && r.Latency.P99-a.StalledMaxMs <= bound {
			return i
		}
	}
	return -1
}

// baseline is the level the service is to recover to: baselineWindows
// windows at rate, each as long as and warmed up like a recovery window
// (a p99 over 1.5 s is not comparable with one over 0.5 s), the first
// after a longer warm-up (the service's first requests at this rate). Its
// p99 is the median window's, not one window's luck; a window far above
// it says the machine stalled, and recoveryBound calls the baseline no
// level at all. Its requests, errors and schedule (stalls included) are
// the windows' sums.
func baseline(open openLoop, rate float64) ([]result.Run, result.Run) {
	var ws []result.Run
	for i := range baselineWindows {
		warm := recoveryWarmup
		if i == 0 {
			warm = 2 * recoveryWarmup
		}
		ws = append(ws, open(fmt.Sprintf("baseline ½× %d", i+1), rate, recoveryWindow, warm, 0))
	}
	byP99 := slices.SortedFunc(slices.Values(ws), func(a, b result.Run) int { return cmp.Compare(a.Latency.P99, b.Latency.P99) })
	sum := result.Run{Variant: "baseline ½×", Latency: byP99[len(byP99)/2].Latency, Arrival: &result.Arrival{IntendedRPS: rate}}
	for _, w := range ws {
		a := arrival(w)
		sum.Requests, sum.Errors, sum.DurationS = sum.Requests+w.Requests, sum.Errors+w.Errors, sum.DurationS+w.DurationS
		sum.Arrival.Scheduled, sum.Arrival.Missed, sum.Arrival.NotSent = sum.Arrival.Scheduled+a.Scheduled, sum.Arrival.Missed+a.Missed, sum.Arrival.NotSent+a.NotSent
		sum.Arrival.Stalled, sum.Arrival.StalledMaxMs = sum.Arrival.Stalled+a.Stalled, max(sum.Arrival.StalledMaxMs, a.StalledMaxMs)
	}
	return ws, sum
}

// recoveryBound is the p99 a recovery window must come back under: twice
// the baseline's (or 5 ms above it, for a fast service). steady says every
// baseline window was under it too: else the level before the burst was no
// level (a stall of the machine), and "not recovered" would judge the
// machine.
func recoveryBound(bases []result.Run, p99 float64) (bound float64, steady bool) {
	bound = max(2*p99, p99+5)
	for _, b := range bases {
		if b.Latency.P99 > bound {
			return bound, false
		}
	}
	return bound, true
}

// p99List is the windows' p99s, in ms, for the evidence.
func p99List(rs []result.Run) string {
	var out []string
	for _, r := range rs {
		out = append(out, fmt.Sprintf("%.1f", r.Latency.P99))
	}
	return strings.Join(out, ", ")
}

// recoverAfter runs half-second open-loop windows at the baseline's rate
// until one's p99 is within bound (recoveryBound): ok only
// when that window ended within RecoveryLimit of the burst, so a verdict
// never reads "recovered in 5.6s" beside a limit of 5 s. margin (the
// bound less the baseline's p99) is how late the load tool may send a
// request on its own before it is counted as stalled.
func recoverAfter(ctx context.Context, open openLoop, rate, bound float64, margin time.Duration) ([]result.Run, bool, time.Duration) {
	t0 := time.Now()
	var out []result.Run
	for i := 0; time.Since(t0) < RecoveryLimit && ctx.Err() == nil; i++ {
		r := open(fmt.Sprintf("recovery %d", i+1), rate, recoveryWindow, recoveryWarmup, margin)
		out = append(out, r)
		if r.Latency.P99 <= bound && r.Requests > 0 {
			took := time.Since(t0)
			return out, took <= RecoveryLimit, took
		}
	}
	return out, false, time.Since(t0)
}

func arrival(r result.Run) result.Arrival {
	if r.Arrival == nil {
		return result.Arrival{}
	}
	return *r.Arrival
}

// serverCPU is the service's process_cpu_seconds_total (Prometheus's
// process collector), or c.ServerCPU's reading; -1 when neither is given
// or the service does not export it.
func (c Config) serverCPU(ctx context.Context) float64 {
	if c.ServerCPU != nil {
		return c.ServerCPU()
	}
	if c.MetricsURL == "" {
		return -1
	}
	m, err := proc.ScrapeURL(ctx, c.MetricsURL)
	if err != nil {
		return -1
	}
	v, ok := m["process_cpu_seconds_total"]
	if !ok {
		return -1
	}
	return v
}
