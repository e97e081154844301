package load

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/result"
)

// The open loop (ARRIVAL=rate RATE=N, and every probe of a capacity
// search). A closed loop — Drive's users, k6's VUs, wrk — sends the next
// request only when the last one came back: when the server stalls, the
// users stop sending, so the requests that *would* have arrived during
// the stall are never sent and never measured. Its percentiles then hide
// the queue a real audience builds up ("coordinated omission", Gil Tene).
// An open loop sends on a schedule — request i at start + i/rate, whatever
// the responses do — and times each request from when it was *due*, not
// from when a connection was free to send it (wrk2, HdrHistogram's
// practice): a 200 ms stall then shows up as the 200 ms, 199 ms, …
// waits of every request scheduled during it.

// LateAfter is how late a request may leave before it counts as a missed
// schedule: more than a timer's slack, less than any queue worth naming.
const LateAfter = time.Millisecond

// DefaultMaxInFlight bounds the connections an open loop opens when
// Options.MaxInFlight is not set: enough for a 1 000 req/s schedule to
// ride out a one-second stall, few enough not to exhaust a laptop's files.
const DefaultMaxInFlight = 1000

// openGrace is how long after the window's last due time the driver keeps
// sending the requests still waiting for a connection.
func openGrace(o Options) time.Duration {
	return max(250*time.Millisecond, o.Duration/4)
}

// schedule is an open-loop run's shared state. Senders claim slots in
// order; slot i is due at t0 + i/rate. Slots below first are the warm-up,
// slots from last on are past the window.
type schedule struct {
	t0          time.Time
	interval    float64 // nanoseconds between slots
	first, last int64
	next        atomic.Int64
	giveUp      time.Time // no slot is sent after this
	winStart    time.Time
	winEnd      time.Time
	stop        atomic.Bool
	missed      atomic.Int64
	notSent     atomic.Int64
	stalled     atomic.Int64 // left late with their sender ready before they were due (Arrival.Stalled)
	stallMax    atomic.Int64 // the longest of those delays, in nanoseconds
	inWindow    atomic.Int64 // responses received while the window was open
	afterStart  atomic.Int64 // responses received since the window opened (bytes/request)
	senders     atomic.Int64
	inFlight    atomic.Int64 // senders waiting for the server's answer
	maxSenders  int64
	mu          sync.Mutex
	users       []*user
	wg          sync.WaitGroup
	spawnSender func()
}

// newSchedule lays out o's slots: the warm-up's, then the window's
// (o.Iterations of them, or o.Duration's worth at o.Rate).
func newSchedule(o Options, maxInFlight int) *schedule {
	n := int64(o.Iterations)
	if n <= 0 {
		n = int64(math.Round(o.Duration.Seconds() * o.Rate))
	}
	s := &schedule{interval: float64(time.Second) / o.Rate, maxSenders: int64(maxInFlight)}
	s.first = int64(math.Ceil(o.Warmup.Seconds() * o.Rate))
	s.last = s.first + max(n, 1)
	s.t0 = time.Now().Add(5 * time.Millisecond) // the senders are started before the first slot is due
	s.winStart, s.winEnd = s.due(s.first), s.due(s.last)
	s.giveUp = s.winEnd.Add(openGrace(o))
	return s
}

func (s *schedule) due(i int64) time.Time {
	return s.t0.Add(time.Duration(float64(i) * s.interval))
}

// DriveOpen runs one variant on an arrival-rate schedule of o.Rate
// requests per second and returns what it measured: Run.RPS is the
// achieved rate, Run.Latency runs from each request's due time, and
// Run.Arrival says how well the schedule was kept. A sender is one
// in-flight request on its own connection; the driver starts o.VUs of
// them and adds more, up to o.MaxInFlight, whenever a request is late
// because every sender was busy.
func DriveOpen(ctx context.Context, o Options, v Variant, mark func(phase string)) (result.Run, error) {
	if o.Rate <= 0 {
		return result.Run{}, errors.New(messages.T("load.bad_rate", o.Rate))
	}
	addr, err := hostPort(o.Target)
	if err != nil {
		return result.Run{}, err
	}
	maxInFlight := o.MaxInFlight
	if maxInFlight <= 0 {
		maxInFlight = max(o.VUs, DefaultMaxInFlight)
	}
	var wire atomic.Int64
	cs := newConns(&wire, o.dial)
	client := newClient(addr, maxInFlight, o, 10*time.Second, cs)
	defer client.CloseIdleConnections()

	s := newSchedule(o, maxInFlight)
	s.spawnSender = func() { s.addSender(client, o, v) }
	for range min(max(o.VUs, 1), maxInFlight) {
		s.spawnSender()
	}

	// The window opens at its first slot's due time, whatever the warm-up did.
	select {
	case <-time.After(time.Until(s.winStart)):
	case <-ctx.Done():
	}
	mark("start")
	wireStart := wire.Load()
	s.finish(ctx, cs)
	wireBytes := wire.Load() - wireStart
	mark("end")

	r := s.result(v, o, wireBytes, maxInFlight)
	if o.Progress != nil {
		fmt.Fprint(o.Progress, messages.T("load.open_done",
			v.Name, r.DurationS, r.Requests, r.RPS, o.Rate, r.Arrival.Missed, r.Arrival.InFlightUsed))
	}
	if err := ctx.Err(); err != nil {
		return r, fmt.Errorf("interrupted: %w", err)
	}
	return r, nil
}

// addSender starts one more sender, unless maxSenders already run.
func (s *schedule) addSender(client *fasthttp.HostClient, o Options, v Variant) {
	if s.senders.Add(1) > s.maxSenders {
		s.senders.Add(-1)
		return
	}
	s.mu.Lock()
	u := newUser(len(s.users), o)
	s.users = append(s.users, u)
	s.mu.Unlock()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		u.send(client, o, v, s)
	}()
}

// finish waits for the senders to finish the schedule. A request still
// unanswered past the grace was due and never served: its sender is cut
// (ErrStopped, counted), as is every sender on Ctrl-C. Slots no sender
// ever claimed were due and never sent: each is recorded as missed.
func (s *schedule) finish(ctx context.Context, cs *conns) {
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
	case <-time.After(time.Until(s.giveUp)):
	}
	s.stop.Store(true)
	cs.stopAfterGrace(done)
	end := time.Now()
	for i := max(s.next.Load(), s.first); i < s.last; i++ {
		s.notSent.Add(1)
		s.missed.Add(1)
		s.users[0].record(end.Sub(s.due(i)))
	}
}

// result is the open loop's run: the rate over the scheduled window, and
// how far the arrivals kept to the schedule.
func (s *schedule) result(v Variant, o Options, wireBytes int64, maxInFlight int) result.Run {
	window := s.winEnd.Sub(s.winStart)
	r := collect(v, len(s.users), window, s.users)
	r.RPS = float64(s.inWindow.Load()) / window.Seconds()
	if n := s.afterStart.Load(); n > 0 {
		r.PerRequest.PublicBytes = float64(wireBytes) / float64(n)
	}
	r.Arrival = &result.Arrival{IntendedRPS: o.Rate, AchievedRPS: r.RPS, Scheduled: s.last - s.first,
		Missed: s.missed.Load(), NotSent: s.notSent.Load(), Stalled: s.stalled.Load(),
		StalledMaxMs: float64(s.stallMax.Load()) / float64(time.Millisecond), MaxInFlight: maxInFlight,
		InFlightUsed: len(s.users), LatencyFrom: "intended send time"}
	return r
}

func (u *user) record(lat time.Duration) {
	_ = u.hist.RecordValue(max(lat.Microseconds(), 1))
}

// send is one sender: claim the next slot, wait until it is due, send it,
// time it from its due time; again until the schedule is past the window.
func (u *user) send(client *fasthttp.HostClient, o Options, v Variant, s *schedule) {
	reqs, resp := newRequests(o, v), fasthttp.AcquireResponse()
	defer reqs.release()
	defer fasthttp.ReleaseResponse(resp)
	stallAfter := cmp.Or(o.StallAfter, LateAfter)
	for !s.stop.Load() {
		free := time.Now() // this sender is ready for its next slot
		i := s.next.Add(1) - 1
		if i >= s.last {
			return
		}
		due := s.due(i)
		measured := i >= s.first
		if !s.keepUp(u, due, measured) {
			return // DriveOpen counts the slots nobody claimed
		}
		if lag := time.Since(later(due, free)); measured && lag > stallAfter {
			s.stall(lag)
		}
		req := reqs.next(&u.vu)
		s.inFlight.Add(1)
		err := client.Do(req, resp)
		s.inFlight.Add(-1)
		end := time.Now()
		if err == nil {
			err = check(v, &u.vu, resp)
		}
		if !end.Before(s.winStart) {
			s.afterStart.Add(1)
			if end.Before(s.winEnd) {
				s.inWindow.Add(1)
			}
		}
		// The series sees the warm-up too, timed from the due time; the
		// run's counts, the window alone.
		u.rec.Record(end.Sub(due), err != nil)
		if measured {
			u.tally(end.Sub(due), err)
		}
	}
}

// stall counts a request the driver itself sent lag late, and keeps the
// longest such delay.
func (s *schedule) stall(lag time.Duration) {
	s.stalled.Add(1)
	for {
		m := s.stallMax.Load()
		if int64(lag) <= m || s.stallMax.CompareAndSwap(m, int64(lag)) {
			return
		}
	}
}

// later is the later of two times: when a request could leave at the
// earliest (its due time, or its sender's readiness if the server held the
// sender past it). Any delay beyond that is the driver's own.
func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// keepUp waits for a slot due later; for one already late, it counts the
// slot as missing its schedule and adds a sender when every other one is
// waiting for the server. It says false when the window's grace is over:
// the slot, due and never sent, is counted, and the sender stops.
func (s *schedule) keepUp(u *user, due time.Time, measured bool) bool {
	now := time.Now()
	if now.After(s.giveUp) {
		if measured {
			s.notSent.Add(1)
			s.missed.Add(1)
			u.record(now.Sub(due))
		}
		return false
	}
	if late := now.Sub(due); late > LateAfter {
		// No sender was free when this one came due: count it. If every
		// other sender is waiting for the server, add one, so the
		// schedule is kept from now on when the server is only slow;
		// if they are not (the driver itself is short of CPU), more
		// connections would only slow it down further.
		if measured {
			s.missed.Add(1)
		}
		if s.inFlight.Load() >= s.senders.Load()-1 {
			s.spawnSender()
		}
	} else if late < 0 {
		time.Sleep(-late)
	}
	return true
}

// tally counts a measured response, timed from when it was due (the
// queue is part of the wait), and its error.
func (u *user) tally(wait time.Duration, err error) {
	u.count.Add(1)
	u.record(wait)
	if err == nil {
		return
	}
	u.errors++
	if u.firstErr == "" {
		u.firstErr = err.Error()
	}
	if errors.Is(err, fasthttp.ErrNoFreeConns) || isConnRefused(err) {
		time.Sleep(10 * time.Millisecond)
	}
}
