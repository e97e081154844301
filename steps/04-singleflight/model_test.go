package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/bubble"
	"github.com/peakload/workshop/internal/harness/testseed"
)

// The model: per key, a load is in flight or not. A caller that arrives
// when none is starts one; one that arrives while one runs joins it. When
// the load ends, every caller still waiting on it gets its value, or its
// error (a panic being an error too). A caller that gives up (cancelled,
// past its deadline) returns at once with its ctx's error and the load goes
// on: the next caller joins it. Nothing is left once all is over.

// A chkOp is one step of a schedule.
type chkOp struct {
	kind      string // "arrive", "cancel", "end", "sleep"
	chkCaller string // arrive, cancel: c1, c2…
	key       string // arrive, end
	ctx       string // arrive: "", "cancellable" or "deadline"
	how       string // end: "value", "error" or "panic"
	d         time.Duration
}

func (o chkOp) String() string {
	switch o.kind {
	case "arrive":
		s := fmt.Sprintf("%s calls Load(%s)", o.chkCaller, o.key)
		if o.ctx == "deadline" {
			s += fmt.Sprintf(" with a %v deadline", o.d)
		}
		return s
	case "cancel":
		return fmt.Sprintf("%s's ctx is cancelled", o.chkCaller)
	case "end":
		return fmt.Sprintf("the load of %s ends with %s", o.key, map[string]string{"value": "a value", "error": "an error", "panic": "a panic"}[o.how])
	}
	return fmt.Sprintf("%v pass", o.d)
}

func chkSchedule(ops []chkOp) string {
	var s []string
	for i, o := range ops {
		s = append(s, fmt.Sprintf("  %2d. %s", i+1, o))
	}
	return strings.Join(s, "\n")
}

// chkGenerate draws a schedule over three keys; its sleeps add up to less than
// chkLoadHorizon, so no load's own timeout can end it.
func chkGenerate(seed uint64) []chkOp {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	keys := []string{"a", "b", "c"}
	var ops []chkOp
	var callers []string
	var slept time.Duration
	for range 8 + r.IntN(13) {
		switch p := r.IntN(100); {
		case p < 45 || len(callers) == 0:
			o := chkOp{kind: "arrive", chkCaller: fmt.Sprintf("c%d", len(callers)+1), key: keys[r.IntN(len(keys))]}
			switch r.IntN(4) {
			case 0:
				o.ctx = "cancellable"
			case 1:
				o.ctx, o.d = "deadline", time.Duration(1+r.IntN(30))*10*time.Millisecond
			}
			callers = append(callers, o.chkCaller)
			ops = append(ops, o)
		case p < 60:
			ops = append(ops, chkOp{kind: "cancel", chkCaller: callers[r.IntN(len(callers))]})
		case p < 85:
			ops = append(ops, chkOp{kind: "end", key: keys[r.IntN(len(keys))], how: []string{"value", "value", "value", "error", "error", "panic"}[r.IntN(6)]})
		default:
			d := time.Duration(1+r.IntN(20)) * 10 * time.Millisecond
			if slept+d < chkLoadHorizon-200*time.Millisecond {
				slept += d
				ops = append(ops, chkOp{kind: "sleep", d: d})
			}
		}
	}
	return ops
}

// chkExpected is what the model says a caller gets.
type chkExpected struct {
	c         *chkCaller
	key       string
	waiting   bool
	want      string // "value", "error", "panic", "canceled", "deadline"
	val       []byte // want "value"
	err       error  // want "error"
	deadline  time.Time
	chkFlight *chkModelFlight
}

type chkModelFlight struct {
	n       int // the key's nth load
	waiters []*chkExpected
}

// chkModel runs ops against the Group in a bubble, checking after every op.
type chkModel struct {
	h       *chkHarness
	loads   map[string]int
	flights map[string]*chkModelFlight
	callers map[string]*chkExpected
	order   []string
}

// chkWatch is what the real-time watchdog reports if a run is stuck.
type chkWatch struct {
	mu   sync.Mutex
	seed uint64
	ops  []chkOp
	at   int // the op being played
}

func (w *chkWatch) playing(ops []chkOp, at int) {
	w.mu.Lock()
	w.ops, w.at = ops, at
	w.mu.Unlock()
}

// chkRun plays ops in a fresh bubble and returns the first observation that
// breaks the model ("" if none).
func chkRun(t *testing.T, ops []chkOp, w *chkWatch) (broken string) {
	w.playing(ops, 0)
	bubble.Test(t, func(t *testing.T) {
		m := &chkModel{h: chkNewHarness(), loads: map[string]int{}, flights: map[string]*chkModelFlight{}, callers: map[string]*chkExpected{}}
		defer func() {
			if leak := m.h.cleanup(); broken == "" && leak != "" {
				broken = "once the schedule was over: " + leak
			}
		}()
		for i, o := range ops {
			w.playing(ops, i)
			m.play(o)
			synctest.Wait()
			if b := m.check(); b != "" {
				broken = fmt.Sprintf("after step %d (%s): %s", i+1, o, b)
				return
			}
		}
		w.playing(ops, len(ops))
		for _, key := range slices.Sorted(maps.Keys(m.flights)) {
			m.play(chkOp{kind: "end", key: key, how: "value"})
		}
		synctest.Wait()
		if b := m.check(); b != "" {
			broken = "once every load left running ended with a value: " + b
		}
	}, ignoreDeadlock)
	return broken
}

func (m *chkModel) play(o chkOp) {
	switch o.kind {
	case "arrive":
		ctx, cancel := context.Background(), context.CancelFunc(func() {})
		e := &chkExpected{key: o.key, waiting: true}
		if o.ctx == "deadline" {
			ctx, cancel = context.WithTimeout(ctx, o.d)
			e.deadline = time.Now().Add(o.d)
		}
		_ = cancel // the harness cancels every caller when the run ends
		f := m.flights[o.key]
		if f == nil {
			m.loads[o.key]++
			f = &chkModelFlight{n: m.loads[o.key]}
			m.flights[o.key] = f
		}
		f.waiters = append(f.waiters, e)
		e.chkFlight = f
		e.c = m.h.call(ctx, o.key)
		m.callers[o.chkCaller] = e
		m.order = append(m.order, o.chkCaller)
	case "cancel":
		e := m.callers[o.chkCaller]
		if e == nil {
			return
		}
		e.c.cancel()
		if e.waiting {
			e.waiting, e.want = false, "canceled"
			e.chkFlight.waiters = slices.DeleteFunc(e.chkFlight.waiters, func(x *chkExpected) bool { return x == e })
		}
	case "sleep":
		time.Sleep(o.d) // the bubble's fake clock
		for _, e := range m.callers {
			if e.waiting && !e.deadline.IsZero() && !time.Now().Before(e.deadline) {
				e.waiting, e.want = false, "deadline"
				e.chkFlight.waiters = slices.DeleteFunc(e.chkFlight.waiters, func(x *chkExpected) bool { return x == e })
			}
		}
	case "end":
		f := m.flights[o.key]
		if f == nil {
			return // no load of that key in flight: nothing to end
		}
		delete(m.flights, o.key)
		res := chkOutcome{val: []byte(fmt.Sprintf("%s#%d", o.key, f.n))}
		switch o.how {
		case "error":
			res = chkOutcome{err: fmt.Errorf("load %d of %s failed", f.n, o.key)}
		case "panic":
			res = chkOutcome{panic: fmt.Sprintf("load %d of %s panicked", f.n, o.key)}
		}
		for _, e := range f.waiters {
			e.waiting, e.want, e.val, e.err = false, o.how, res.val, res.err
		}
		for _, fl := range m.h.running(o.key) {
			fl.end <- res
		}
	}
}

// check compares the Group with the model, the loads first.
func (m *chkModel) check() string {
	for _, key := range []string{"a", "b", "c"} {
		if err := m.h.ctxEnded(key); err != nil {
			return fmt.Sprintf("the load of %s: %v, though the schedule had not ended it "+
				"(want a load's context detached from its callers, with a timeout of its own)", key, err)
		}
		if got, want := m.h.loads(key), m.loads[key]; got != want {
			return fmt.Sprintf("the Group had started %d load(s) of %s; the model: %d "+
				"(one load per key at a time: a caller arriving while one runs joins it, even after others gave up)", got, key, want)
		}
	}
	for _, name := range m.order {
		if b := m.callers[name].check(); b != "" {
			return name + " " + b
		}
	}
	return ""
}

func (e *chkExpected) check() string {
	c := e.c
	if e.waiting {
		if c.returned() {
			return fmt.Sprintf("returned (%s) while its load of %s still ran and its ctx was live; want it still waiting", c, e.key)
		}
		return ""
	}
	if !c.returned() {
		return fmt.Sprintf("is still waiting; the model: it has %s", map[string]string{
			"value": "its key's value", "error": "its load's error", "panic": "an error (its load panicked)",
			"canceled": "context.Canceled, at once", "deadline": "context.DeadlineExceeded, at its deadline"}[e.want])
	}
	switch ok := true; e.want {
	case "value":
		ok = c.err == nil && bytes.Equal(c.val, e.val)
		if !ok {
			return fmt.Sprintf("got %s; want %q, the value of the load it waited for", c, e.val)
		}
	case "error":
		if !errors.Is(c.err, e.err) {
			return fmt.Sprintf("got %s; want an error that is errors.Is the load's %q", c, e.err)
		}
	case "panic":
		if c.err == nil || strings.Contains(c.err.Error(), "in the caller's goroutine") {
			return fmt.Sprintf("got %s; want an error returned by Load (its load panicked)", c)
		}
	case "canceled":
		if !errors.Is(c.err, context.Canceled) {
			return fmt.Sprintf("got %s; want context.Canceled (its ctx was cancelled while it waited)", c)
		}
	case "deadline":
		if !errors.Is(c.err, context.DeadlineExceeded) || c.at.After(e.deadline) {
			return fmt.Sprintf("got %s, %v after its deadline; want context.DeadlineExceeded at its deadline", c, c.at.Sub(e.deadline))
		}
	}
	return ""
}

// chkShrink drops ops one at a time while the schedule still breaks the model.
func chkShrink(t *testing.T, ops []chkOp, w *chkWatch) ([]chkOp, string) {
	broken := chkRun(t, ops, w)
	for runs := 0; runs < 400; {
		smaller := false
		for i := range ops {
			try := slices.Delete(slices.Clone(ops), i, i+1)
			runs++
			if b := chkRun(t, try, w); b != "" {
				ops, broken, smaller = try, b, true
				break
			}
		}
		if !smaller {
			break
		}
	}
	return ops, broken
}

// Random schedules over three keys — callers arriving with and without
// deadlines, cancelling, time passing, loads ending with a value, an error
// or a panic — checked against the model after every step. PEAKLOAD_SEED=n
// replays one seed.
func TestRandomSchedulesMatchTheModel(t *testing.T) {
	if chkIsolated(t) {
		return
	}
	seeds := testseed.Seeds(t, 300)
	w := &chkWatch{}
	stuck := time.AfterFunc(chkStuckAfter, func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		i := min(w.at+1, len(w.ops))
		bubble.Abort(t.Name(), messages.T("bubble.timed_out", t.Name(), chkStuckAfter),
			fmt.Sprintf("seed %d (replay: PEAKLOAD_SEED=%d make step-4 check): the test was stuck for %v (real time) at step %d of:\n%s",
				w.seed, w.seed, chkStuckAfter, i, chkSchedule(w.ops[:i])), chkStuckGoroutines())
	})
	defer stuck.Stop()
	for _, s := range seeds {
		w.mu.Lock()
		w.seed = s
		w.mu.Unlock()
		stuck.Reset(chkStuckAfter)
		ops := chkGenerate(s)
		if chkRun(t, ops, w) == "" {
			continue
		}
		stuck.Reset(2 * chkStuckAfter)
		short, broken := chkShrink(t, ops, w)
		t.Fatalf("seed %d (replay: PEAKLOAD_SEED=%d make step-4 check) breaks the model; its shortest failing schedule:\n%s\n%s",
			s, s, chkSchedule(short), broken)
	}
}
