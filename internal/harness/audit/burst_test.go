package audit

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/probe/probetest"
	"github.com/peakload/workshop/internal/harness/result"
	"github.com/peakload/workshop/internal/harness/stacktest/mongotest"
)

// queueServer serves one request at a time (5 ms each) and never sheds;
// its /metrics reports process_cpu_seconds_total as cpu(elapsed seconds).
func queueServer(cpu func(elapsed float64) float64) *httptest.Server {
	t0 := time.Now()
	var one sync.Mutex
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/metrics" {
			fmt.Fprintf(w, "# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total %g\n", cpu(time.Since(t0).Seconds()))
			return
		}
		one.Lock()
		defer one.Unlock()
		time.Sleep(5 * time.Millisecond)
		io.WriteString(w, "{}")
	}))
}

// TestBurstQueueIsJudgedOnlyWhenTheServerIsSaturated: the same queue is
// the service's fault when its CPU (-metrics) was saturated, and "not
// judged" when it was idle — then the queue could be the machine's.
func TestBurstQueueIsJudgedOnlyWhenTheServerIsSaturated(t *testing.T) {
	for _, tc := range []struct {
		name    string
		cpu     func(float64) float64
		mark    string
		verdict string
	}{
		{"idle server", func(float64) float64 { return 1 }, NotJudged, "not judged"},
		{"saturated server", func(s float64) float64 { return 1 + s }, Missing, "queues, no shedding"},
	} {
		srv := queueServer(tc.cpu)
		_, fs := burst(t.Context(), Config{Target: target(t, srv.URL+"/"), MetricsURL: srv.URL + "/metrics", Burst: time.Second, P99Ms: 50})
		srv.Close()
		t.Logf("%s: %s — %s", tc.name, fs[0].Cell(), fs[0].Evidence)
		if fs[0].Mark != tc.mark || fs[0].Verdict != tc.verdict {
			if strings.Contains(fs[0].Evidence, "the audit used") || fs[0].Verdict == "kept up" {
				t.Skipf("%s: the load tool or the machine decided (%s): %s", tc.name, fs[0].Verdict, fs[0].Evidence)
			}
			t.Errorf("%s: %s %q, want %s %q (%s)", tc.name, fs[0].Mark, fs[0].Verdict, tc.mark, tc.verdict, fs[0].Evidence)
		}
	}
}

// TestShedVerdict: the rule on its own, one case per branch.
func TestShedVerdict(t *testing.T) {
	slow := result.Run{Latency: result.Latency{P99: 900}, Errors: 3}
	behind := slow
	behind.Arrival = &result.Arrival{NotSent: 1786, MaxInFlight: 1000}
	for _, tc := range []struct {
		name string
		s    burstSeen
		want string
	}{
		{"503s at half its own rate", burstSeen{BaseShed: 5, Shed: 50, WithRetry: 50, ServerBusy: -1}, "refuses below its own rate"},
		{"503s at half its rate, past the tolerance", burstSeen{BaseShed: 70, Base: result.Run{Requests: 1341}, Shed: 50, WithRetry: 50, ServerBusy: -1}, "refuses below its own rate"},
		{"503s at half its rate, the tool behind", burstSeen{BaseShed: 70, Base: result.Run{Requests: 1341, Arrival: &result.Arrival{Scheduled: 1341, Missed: 400}}, ServerBusy: -1}, "not judged"},
		{"503s at half its rate, as many requests the tool stalled", burstSeen{BaseShed: 70, Base: result.Run{Requests: 1341, Arrival: &result.Arrival{Scheduled: 1341, Stalled: 70}}, ServerBusy: -1}, "not judged"},
		{"503s at half its rate, the baseline's windows spread", burstSeen{BaseShed: 70, Base: result.Run{Requests: 1341, Latency: result.Latency{P99: 5}}, BaseWindows: []result.Run{{Latency: result.Latency{P99: 5}}, {Latency: result.Latency{P99: 4}}, {Latency: result.Latency{P99: 300}}}, ServerBusy: -1}, "not judged"},
		{"503s at half its rate, the baseline's windows one level", burstSeen{BaseShed: 70, Base: result.Run{Requests: 1341, Latency: result.Latency{P99: 5}}, BaseWindows: []result.Run{{Latency: result.Latency{P99: 5}}, {Latency: result.Latency{P99: 4}}, {Latency: result.Latency{P99: 9}}}, ServerBusy: -1}, "refuses below its own rate"},
		{"503s at half its rate, fewer stalled", burstSeen{BaseShed: 70, Base: result.Run{Requests: 1341, Arrival: &result.Arrival{Scheduled: 1341, Stalled: 69}}, ServerBusy: -1}, "refuses below its own rate"},
		{"the odd 503 at half its rate", burstSeen{BaseShed: 7, Base: result.Run{Requests: 1341}, Shed: 50, WithRetry: 50, ServerBusy: -1}, "sheds ✓"},
		{"the load tool saturated", burstSeen{ClientBusy: 0.95, Burst: slow, ServerBusy: 1}, "not judged"},
		{"the load tool saturated, 503s at half rate", burstSeen{ClientBusy: 0.95, BaseShed: 50, Base: result.Run{Requests: 100}, ServerBusy: 1}, "not judged"},
		{"503 + Retry-After", burstSeen{Shed: 50, WithRetry: 50, Burst: slow, ServerBusy: -1}, "sheds ✓"},
		{"503 alone", burstSeen{Shed: 50, WithRetry: 10, Burst: slow, ServerBusy: -1}, "503 without Retry-After"},
		{"fast enough", burstSeen{P99Ms: 100, Burst: result.Run{Latency: result.Latency{P99: 20}}, ServerBusy: -1}, "kept up"},
		{"no metrics", burstSeen{P99Ms: 100, Burst: slow, ServerBusy: -1}, "not judged"},
		{"server idle", burstSeen{P99Ms: 100, Burst: slow, ServerBusy: 0.3}, "not judged"},
		{"the schedule slipped", burstSeen{P99Ms: 100, Burst: behind, ServerBusy: 0.5}, "not judged"},
		{"server saturated", burstSeen{P99Ms: 100, Burst: slow, ServerBusy: 0.97}, "queues, no shedding"},
	} {
		if _, v, why := shedVerdict(tc.s); v != tc.want {
			t.Errorf("%s: %q%s, want %q", tc.name, v, why, tc.want)
		}
	}
	// The evidence says what was seen: requests never sent, every connection waiting.
	if _, _, why := shedVerdict(burstSeen{P99Ms: 100, Burst: behind, ServerBusy: 0.5}); !strings.Contains(why, "1786 requests never sent: all 1000 connections") {
		t.Errorf("a slipped schedule with the service at 50%%: the evidence %q does not name the requests never sent", why)
	}
}

// TestStep6Burst: POST /events/bulk, the untouched exercise against the
// reference. Both have step 6's bounded buffer (given code: past Capacity,
// wait up to a flush interval, then 503 + Retry-After). The exercise writes
// one event per InsertMany, so it reaches that bound at a lower rate: its
// 503s are deliberate, with Retry-After, never a bare queue or a bare 503;
// when they already come at half the rate it served in the closed loop (its
// buffer absorbed the closed loop, then the backlog), the verdict says so.
// The reference serves that baseline cleanly; whether the burst then fills
// its buffer (sheds), saturates its CPU (queues: step 6 bounds memory, not
// CPU) or neither (not judged: the machine was the limit) is this
// machine's, and logged.
func TestStep6Burst(t *testing.T) {
	mongotest.Store(t)
	for _, solution := range []bool{false, true} {
		base := stepServer(t, "steps/06-buffered-writes", solution)
		_, fs := burst(t.Context(), Config{Target: target(t, base+"/events/bulk"), Post: "/events/bulk", BurstPost: true,
			Body: string(params.Load().Event), Burst: 3 * time.Second, P99Ms: params.Load().Capacity.P99Ms, MetricsURL: base + "/metrics"})
		name := map[bool]string{false: "the untouched exercise", true: "the reference"}[solution]
		for _, f := range fs {
			t.Logf("%s: %s: %s — %s", name, f.Practice, f.Cell(), f.Evidence)
		}
		v := fs[0].Verdict
		if v == "503 without Retry-After" || !solution && v == "queues, no shedding" {
			t.Errorf("%s: %s, want 503 + Retry-After past its bound (%s)", name, fs[0].Cell(), fs[0].Evidence)
		}
		if solution && v == "refuses below its own rate" {
			t.Errorf("%s refused at half its closed-loop rate: %s", name, fs[0].Evidence)
		}
	}
}

// TestSemaphoreShedderSheds: a service that serves a fixed number of
// requests at once and answers the rest 503 + Retry-After at once sheds,
// and recovers: the odd 503 at half its rate is tolerated, the warm-up's
// are not counted, and each recovery window is warmed up. The test's
// server shares this process, pinned with the load: when the machine
// stalls it, its 4 slots fill at any rate, as a real shedder's would on a
// stalled machine (seen: 44 ms of baseline p99 for 5 ms of work, 7 % of
// the baseline answered 503). The audit says so itself — not judged, the
// baseline's windows spread or the load tool stalled as often, or "kept
// up" when the closed loop ran during a stall and twice its rate was no
// burst (seen: 179 req/s, then 357 req/s served at p99 9 ms) — and the
// test skips those; a burst that queued without one 503 (p99 past the
// bound, the service's CPU unknown) is a shedder that did not shed, and
// fails.
func TestSemaphoreShedderSheds(t *testing.T) {
	const work = 5 * time.Millisecond
	base := probetest.Serve(t, probetest.Shedder(4, func() { time.Sleep(work) }))
	runs, fs := burst(t.Context(), Config{Target: target(t, base+"/"), Burst: time.Second, P99Ms: 100})
	logRuns(t, runs)
	for _, f := range fs {
		t.Logf("%s: %s — %s", f.Practice, f.Cell(), f.Evidence)
	}
	queued := strings.Contains(fs[0].Evidence, english("table.audit.cpu_unknown"))
	if fs[0].Mark == NotJudged && !queued {
		t.Skipf("the machine decided: %s", fs[0].Evidence)
	}
	if fs[0].Mark != Pass {
		t.Errorf("a semaphore shedder with 503 + Retry-After: %s (%s)", fs[0].Cell(), fs[0].Evidence)
	}
	if fs[1].Mark == Missing {
		t.Errorf("a shedder that never queued did not recover: %s (%s)", fs[1].Cell(), fs[1].Evidence)
	}
}

// TestBareGoServerRecovers: a bare net/http server, which neither sheds
// nor holds a queue past the burst, is back at its baseline's p99 within
// the limit (each recovery window was a fresh, cold open loop: it read as
// "not recovered").
func TestBareGoServerRecovers(t *testing.T) {
	base := probetest.Serve(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, `{"id":1}`) }))
	_, fs := burst(t.Context(), Config{Target: target(t, base+"/"), Burst: 500 * time.Millisecond, P99Ms: 100})
	for _, f := range fs {
		t.Logf("%s: %s — %s", f.Practice, f.Cell(), f.Evidence)
	}
	if fs[1].Mark == Missing {
		t.Errorf("a bare Go server: %s (%s)", fs[1].Cell(), fs[1].Evidence)
	}
}

// The baseline recovery is judged against is several windows, each as
// long as and warmed up like a recovery window, its p99 their median: one
// window a stall spoiled moves it neither way, and a window far above
// the rest makes the baseline no level to recover to.
func TestBaselineIsTheMedianOfItsWindows(t *testing.T) {
	p99s := []float64{8, 3, 5}
	var asked []time.Duration
	open := func(name string, rate float64, d, warm, _ time.Duration) result.Run {
		asked = append(asked, d)
		i := len(asked) - 1
		return result.Run{Variant: course.Variant(name), Requests: 100, Errors: int64(i), Latency: result.Latency{P99: p99s[i]},
			Arrival: &result.Arrival{Scheduled: 100, Missed: 1, Stalled: 2, StalledMaxMs: float64(i)}}
	}
	ws, base := baseline(open, 1000)
	if len(ws) != baselineWindows || base.Latency.P99 != 5 || base.Requests != 300 || base.Errors != 3 || base.Arrival.Scheduled != 300 || base.Arrival.Missed != 3 || base.Arrival.Stalled != 6 || base.Arrival.StalledMaxMs != 2 || base.Arrival.IntendedRPS != 1000 {
		t.Errorf("baseline of %v: %d windows, p99 %.1f, %d requests, %d errors, %+v; want the median p99 5 and the sums", p99s, len(ws), base.Latency.P99, base.Requests, base.Errors, *base.Arrival)
	}
	for _, d := range asked {
		if d != recoveryWindow {
			t.Errorf("a baseline window of %s, want a recovery window's %s", d, recoveryWindow)
		}
	}
	if b, steady := recoveryBound(ws, base.Latency.P99); b != 10 || !steady {
		t.Errorf("recovery bound %.1f (steady %v), want 5 + 5 ms, steady", b, steady)
	}
	ws[0].Latency.P99 = 40 // a window a stall spoiled: no level to recover to
	if _, steady := recoveryBound(ws, base.Latency.P99); steady {
		t.Error("a baseline window at twice the median's p99 and more was called steady")
	}
}

// logRuns logs each open-loop window's schedule: when a verdict surprises,
// its windows say whether the load tool kept up.
func logRuns(t *testing.T, runs []result.Run) {
	t.Helper()
	for _, r := range runs {
		if a := r.Arrival; a != nil {
			t.Logf("%s: p99 %.1f ms, %d requests, %d due, %d late, %d stalled (up to %.1f ms), %d never sent", r.Variant, r.Latency.P99, r.Requests, a.Scheduled, a.Missed, a.Stalled, a.StalledMaxMs, a.NotSent)
		}
	}
}

// degradingServer serves one request at a time, 2 ms each, until more
// than 100 requests waited at once (a burst: the closed loop's 64 users
// cannot make that many wait); from then on each takes 40 ms, as a service
// that leaked its pool under the burst would. At half its first rate it
// then never drains: it does not recover, on any machine.
// A request whose client left stops waiting, so that Close, which waits
// for every handler, is not held by the backlog.
func degradingServer() *httptest.Server {
	one := make(chan struct{}, 1)
	var waiting atomic.Int64
	var broken atomic.Bool
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if waiting.Add(1) > 100 {
			broken.Store(true)
		}
		select {
		case one <- struct{}{}:
			waiting.Add(-1)
		case <-r.Context().Done():
			waiting.Add(-1)
			return
		}
		defer func() { <-one }()
		work := 2 * time.Millisecond
		if broken.Load() {
			work = 40 * time.Millisecond
		}
		select {
		case <-time.After(work):
			io.WriteString(w, "{}")
		case <-r.Context().Done():
		}
	}))
}

// TestServerThatDoesNotRecoverIsNotCalledRecovered: the degrading server's
// p99 stays far above its baseline after the burst. Its recovery is never
// ✓; it is ✗, or not judged when the evidence names a busy machine (the
// load tool's own delays, or its CPU): the verdict that would have been ✗
// is withheld, not turned into a pass.
func TestServerThatDoesNotRecoverIsNotCalledRecovered(t *testing.T) {
	srv := degradingServer()
	defer srv.Close()
	runs, fs := burst(t.Context(), Config{Target: target(t, srv.URL+"/"), Burst: time.Second, P99Ms: 50})
	logRuns(t, runs)
	for _, f := range fs {
		t.Logf("%s: %s — %s", f.Practice, f.Cell(), f.Evidence)
	}
	switch f := fs[1]; {
	case f.Mark == Pass:
		t.Errorf("a server slowed for good by the burst: %s (%s), want ✗ not recovered", f.Cell(), f.Evidence)
	case f.Mark == NotJudged:
		t.Skipf("the machine decided: %s", f.Evidence)
	}
}

// TestRecoveryNotJudgedWhenTheLoadToolStalled: the recovery rule on fake
// windows (in a synctest bubble: a window takes its 750 ms of fake time).
// Windows that never come back under the bound are "not recovered" when
// the load tool sent on time, and when its few stalls cannot account for
// a p99 far above the bound; they are not judged, naming the window, when
// 1% of a window stalled past the bound's margin and its p99 less the
// longest stall is within the bound. Never ✓.
func TestRecoveryNotJudgedWhenTheLoadToolStalled(t *testing.T) {
	base := result.Run{Requests: 300, Latency: result.Latency{P99: 5}, Arrival: &result.Arrival{IntendedRPS: 200, Scheduled: 300}}
	bases := []result.Run{base, base, base}
	for _, tc := range []struct {
		name          string
		p99           float64
		stalled       int64
		stalledMaxMs  float64
		mark, inWords string
	}{
		{"sent on time", 40, 0, 0, Missing, "not recovered"},
		{"stalls far shorter than the excess", 1200, 5, 20, Missing, "not recovered"},
		{"1% stalled, the stall covers the excess", 40, 1, 35, NotJudged, "in recovery window 1, 1 of 100 requests left more than 5.0 ms late"},
	} {
		synctest.Test(t, func(t *testing.T) {
			open := func(name string, rate float64, d, warm, stall time.Duration) result.Run {
				time.Sleep(d + warm)
				if stall != 5*time.Millisecond {
					t.Errorf("%s: a recovery window counts stalls past %s, want the bound's margin over the baseline, 5ms", tc.name, stall)
				}
				return result.Run{Requests: 100, Latency: result.Latency{P99: tc.p99},
					Arrival: &result.Arrival{Scheduled: 100, Stalled: tc.stalled, StalledMaxMs: tc.stalledMaxMs}}
			}
			_, f := Config{}.recovery(t.Context(), open, result.CPUPlan{}, bases, baseline3(bases), Finding{Mark: NotJudged})
			if f.Mark != tc.mark || !strings.Contains(f.Verdict+f.Evidence, tc.inWords) {
				t.Errorf("%s: %s %q (%s), want %s with %q", tc.name, f.Mark, f.Verdict, f.Evidence, tc.mark, tc.inWords)
			}
		})
	}
}

// baseline3 is the baseline's sums over its windows, as baseline makes them.
func baseline3(ws []result.Run) result.Run {
	sum := result.Run{Latency: ws[0].Latency, Arrival: &result.Arrival{IntendedRPS: ws[0].Arrival.IntendedRPS}}
	for _, w := range ws {
		sum.Requests += w.Requests
		sum.Arrival.Scheduled += w.Arrival.Scheduled
	}
	return sum
}

// TestLoadToolStallsExplainOnlyTheirOwnLength: stalledWindow on its own.
func TestLoadToolStallsExplainOnlyTheirOwnLength(t *testing.T) {
	w := func(p99 float64, stalled int64, maxMs float64) result.Run {
		return result.Run{Latency: result.Latency{P99: p99}, Arrival: &result.Arrival{Scheduled: 200, Stalled: stalled, StalledMaxMs: maxMs}}
	}
	for _, tc := range []struct {
		name string
		rec  []result.Run
		want int
	}{
		{"no stall", []result.Run{w(40, 0, 0), w(40, 0, 0)}, -1},
		{"one stalled request in 200", []result.Run{w(40, 1, 100)}, -1},
		{"2 of 200 stalled 35 ms, p99 40 against 10", []result.Run{w(40, 0, 0), w(40, 2, 35)}, 1},
		{"2 of 200 stalled 20 ms, p99 1200 against 10", []result.Run{w(1200, 2, 20)}, -1},
	} {
		if got := stalledWindow(tc.rec, 10); got != tc.want {
			t.Errorf("%s: window %d, want %d", tc.name, got, tc.want)
		}
	}
}
