package audit

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/peakload/workshop/internal/bench"
	"github.com/peakload/workshop/internal/probe"
)

// The burst (steps 4–6): beyond what a service can serve, it either sheds
// the excess at once (503 with Retry-After: the client knows when to come
// back, and the requests it does serve stay fast) or queues it, and every
// request waits behind the queue until timeouts pile up. An open loop shows
// which: requests keep arriving on schedule whatever the answers do.

const burstStep = "4–6 (singleflight, burst cache, buffered writes: 503 + Retry-After)"

// shedCount counts, over a run, the answers that shed load.
type shedCount struct{ shed, retryAfter atomic.Int64 }

func (c Config) burstVariant(n *shedCount) bench.Variant {
	req := probe.Request{Method: "GET", Path: c.Target.Path}
	if c.BurstPost {
		req = probe.Request{Method: "POST", Path: c.Post, Body: c.Body, Headers: map[string]string{"Content-Type": "application/json"}}
	}
	v := (&probe.Config{Target: c.Target, Requests: []probe.Request{req}}).Variants()[0]
	v.Check = func(_ *bench.VU, resp *fasthttp.Response) error {
		code := resp.StatusCode()
		if code == fasthttp.StatusServiceUnavailable {
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

// burst measures the closed loop's rate R, then opens: half of R for a
// baseline, twice R for c.Burst, then half of R again in half-second
// windows until p99 is back near the baseline's (at most 5 s).
func burst(ctx context.Context, c Config) ([]bench.Run, []Finding) {
	shedding := Finding{Practice: "under a burst: sheds load (503 + Retry-After), latency bounded", Step: burstStep}
	recovery := Finding{Practice: "after a burst: p99 recovers", Step: burstStep, Mark: NotJudged, Verdict: "not judged"}
	var counts shedCount
	v := c.burstVariant(&counts)
	nop := func(string) {}
	closed, err := bench.Drive(ctx, bench.Options{Target: c.Target.Base, VUs: 64, Duration: 2 * time.Second, Warmup: 500 * time.Millisecond}, v, nop)
	closed.Variant = "closed loop (64 VUs)"
	if err != nil || closed.RPS < 2 {
		shedding.Mark, shedding.Verdict, shedding.Evidence = NotJudged, "not judged", fmt.Sprintf("the closed loop served %.0f req/s (%v)", closed.RPS, err)
		recovery.Evidence = "no burst"
		return []bench.Run{closed}, []Finding{shedding, recovery}
	}
	warm := time.Duration(0)
	open := func(name string, rate float64, d time.Duration) bench.Run {
		r, _ := bench.DriveOpen(ctx, bench.Options{Target: c.Target.Base, VUs: 16, Rate: rate, Duration: d, Warmup: warm}, v, nop)
		r.Variant = name
		return r
	}
	warm = 500 * time.Millisecond // the baseline's connections opened before its window
	base := open("baseline ½×", closed.RPS/2, 1500*time.Millisecond)
	warm = 0
	counts.shed.Store(0)
	counts.retryAfter.Store(0)
	cpu0, srv0 := bench.SelfCPU(), c.serverCPU(ctx)
	b := open("burst 2×", 2*closed.RPS, c.Burst)
	clientBusy := (bench.SelfCPU() - cpu0).Seconds() / c.Burst.Seconds() / float64(runtime.NumCPU())
	serverBusy := (c.serverCPU(ctx) - srv0) / c.Burst.Seconds() // of one CPU; 0 without -metrics
	shed, withRetry := counts.shed.Load(), counts.retryAfter.Load()
	runs := []bench.Run{closed, base, b}
	shedding.Evidence = fmt.Sprintf("closed loop %.0f req/s; open loop at %.0f req/s for %s: %d answered, %d × 503 (%d with Retry-After), %d other errors, %d never sent; p99 %.0f ms, max %.0f ms (baseline p99 %.1f ms)",
		closed.RPS, 2*closed.RPS, c.Burst, b.Requests, shed, withRetry, b.Errors-shed, arrival(b).NotSent, b.Latency.P99, b.Latency.Max, base.Latency.P99)
	switch {
	case shed > 0 && withRetry == shed:
		shedding.Mark, shedding.Verdict = Pass, "sheds ✓"
	case shed > 0:
		shedding.Mark, shedding.Verdict = Missing, "503 without Retry-After"
	case clientBusy >= bench.ClientBusyLimit:
		shedding.Mark, shedding.Verdict = NotJudged, "not judged"
		shedding.Evidence += fmt.Sprintf("; the audit used %.0f%% of this machine's CPUs: the queue may be the driver's", 100*clientBusy)
	case srv0 > 0 && serverBusy < bench.ServerIdleLimit:
		shedding.Mark, shedding.Verdict = NotJudged, "not judged"
		shedding.Evidence += fmt.Sprintf("; the server used %.0f%% of a CPU: not saturated, so the queue was the driver's or the machine's", 100*serverBusy)
	case b.Latency.P99 <= c.P99Ms && b.Errors == 0:
		shedding.Mark, shedding.Verdict = NotJudged, "kept up"
		shedding.Evidence += fmt.Sprintf("; p99 stayed ≤ %.0f ms: twice the closed loop's rate was no burst for it", c.P99Ms)
	default:
		shedding.Mark, shedding.Verdict = Missing, "queues, no shedding"
	}
	rec, ok, took := recoverAfter(ctx, open, closed.RPS/2, base.Latency.P99)
	runs = append(runs, rec...)
	var p99s []string
	for _, r := range rec {
		p99s = append(p99s, fmt.Sprintf("%.1f", r.Latency.P99))
	}
	recovery.Evidence = fmt.Sprintf("at %.0f req/s after the burst, p99 per half second: %s ms (baseline %.1f ms)", closed.RPS/2, strings.Join(p99s, ", "), base.Latency.P99)
	if ok {
		recovery.Mark, recovery.Verdict = Pass, fmt.Sprintf("recovered in %s ✓", took.Round(100*time.Millisecond))
	} else {
		recovery.Mark, recovery.Verdict = Missing, "not recovered in 5 s"
	}
	return runs, []Finding{shedding, recovery}
}

// recoverAfter runs half-second open-loop windows until one's p99 is within
// twice the baseline's (or 5 ms of it), at most ten of them.
func recoverAfter(ctx context.Context, open func(string, float64, time.Duration) bench.Run, rate, baseP99 float64) ([]bench.Run, bool, time.Duration) {
	bound := max(2*baseP99, baseP99+5)
	t0 := time.Now()
	var out []bench.Run
	for i := range 10 {
		r := open(fmt.Sprintf("recovery %d", i+1), rate, 500*time.Millisecond)
		out = append(out, r)
		if r.Latency.P99 <= bound && r.Requests > 0 {
			return out, true, time.Since(t0)
		}
		if ctx.Err() != nil {
			break
		}
	}
	return out, false, time.Since(t0)
}

func arrival(r bench.Run) bench.Arrival {
	if r.Arrival == nil {
		return bench.Arrival{}
	}
	return *r.Arrival
}

// serverCPU is the service's process_cpu_seconds_total (Prometheus's
// process collector), 0 when -metrics is not given or does not export it.
func (c Config) serverCPU(ctx context.Context) float64 {
	if c.MetricsURL == "" {
		return 0
	}
	m, err := bench.ScrapeURL(ctx, c.MetricsURL)
	if err != nil {
		return 0
	}
	return m["process_cpu_seconds_total"]
}
