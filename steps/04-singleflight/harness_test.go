package main

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/peakload/workshop/internal/harness/bubble"
)

// This file is the check's machinery, not a property: a fake loader the
// test ends by hand, callers it can cancel, and a synctest bubble (fake
// time: "at once" and "after 100 ms" are exact, on any machine). Its names
// start with chk: the check shares package main with your exercise.go.

// chkStuckAfter is real time: a watchdog, not a verdict. A bubble of this
// check ends in milliseconds on a quiet machine; one that has not ended
// after this long has a goroutine blocked on something no fake clock can
// move (a sync.Mutex held across a load, say) — or a machine loaded far
// past a laptop's, which the failure says too.
const chkStuckAfter = 15 * time.Second

// chkLoadHorizon: every schedule of this check ends its loads within this much
// fake time, so a load's context that ends sooner ended because of a caller.
const chkLoadHorizon = time.Second

// chkOutcome is how the test ends a load: a value, an error or a panic.
type chkOutcome struct {
	val   []byte
	err   error
	panic any
}

// chkFlight is one call of a load function the Group was given.
type chkFlight struct {
	key   string
	ctx   context.Context
	end   chan chkOutcome // buffered: the test never waits to end a load
	ended bool
	why   error         // the load's ctx.Err() when the load ended because its context did
	after time.Duration // how long the load had run when its context ended
}

// chkCaller is one goroutine calling Load.
type chkCaller struct {
	id     int
	key    string
	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}
	val    []byte
	err    error
	at     time.Time // when Load returned
}

// chkHarness records what the Group does. Its lock guards every field: the
// learner's goroutines call the loader, the test reads it.
type chkHarness struct {
	group   Group
	mu      sync.Mutex
	flights []*chkFlight
	callers []*chkCaller
	start   time.Time
	doing   string // what the test waits for, for the stuck message
	fails   []string
}

func chkNewHarness() *chkHarness {
	return &chkHarness{start: time.Now()}
}

// now is the fake time since the test began.
func (h *chkHarness) now() time.Duration { return time.Since(h.start) }

func (h *chkHarness) step(format string, args ...any) {
	h.mu.Lock()
	h.doing = fmt.Sprintf(format, args...)
	h.mu.Unlock()
}

// loader is the load function for key: it runs until the test ends it (or
// its own context ends, as a database call would).
func (h *chkHarness) loader(key string) func(context.Context) ([]byte, error) {
	return func(ctx context.Context) ([]byte, error) {
		f := &chkFlight{key: key, ctx: ctx, end: make(chan chkOutcome, 1)}
		since := time.Now()
		h.mu.Lock()
		h.flights = append(h.flights, f)
		h.mu.Unlock()
		select {
		case o := <-f.end:
			h.mu.Lock()
			f.ended = true
			h.mu.Unlock()
			if o.panic != nil {
				panic(o.panic)
			}
			return o.val, o.err
		case <-ctx.Done():
			h.mu.Lock()
			f.ended, f.why, f.after = true, ctx.Err(), time.Since(since)
			h.mu.Unlock()
			return nil, ctx.Err()
		}
	}
}

// loads is the number of loads of key the Group started.
func (h *chkHarness) loads(key string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, f := range h.flights {
		if f.key == key {
			n++
		}
	}
	return n
}

// running lists the loads of key still running.
func (h *chkHarness) running(key string) []*chkFlight {
	h.mu.Lock()
	defer h.mu.Unlock()
	var fs []*chkFlight
	for _, f := range h.flights {
		if f.key == key && !f.ended {
			fs = append(fs, f)
		}
	}
	return fs
}

// finish ends every running load of key with o.
func (h *chkHarness) finish(key string, o chkOutcome) {
	for _, f := range h.running(key) {
		f.end <- o
	}
	synctest.Wait()
}

// ctxEnded says whether a running load of key saw its context end.
func (h *chkHarness) ctxEnded(key string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, f := range h.flights {
		if f.key == key && f.why != nil {
			return fmt.Errorf("the load's context ended (%v) %v after the load started", f.why, f.after)
		}
	}
	return nil
}

// call starts a caller of key whose context is ctx (the caller can cancel
// it); a panic in Load is recorded as the caller's error.
func (h *chkHarness) call(ctx context.Context, key string) *chkCaller {
	ctx, cancel := context.WithCancel(ctx)
	h.mu.Lock()
	c := &chkCaller{id: len(h.callers) + 1, key: key, ctx: ctx, cancel: cancel, done: make(chan struct{})}
	h.callers = append(h.callers, c)
	h.mu.Unlock()
	go func() {
		defer close(c.done)
		defer func() {
			if r := recover(); r != nil {
				c.err = fmt.Errorf("Load panicked in the caller's goroutine: %v", r)
			}
			c.at = time.Now()
		}()
		c.val, c.err = h.group.Load(ctx, key, h.loader(key))
	}()
	return c
}

// returned says whether c's Load has returned (read it after synctest.Wait).
func (c *chkCaller) returned() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

func (c *chkCaller) String() string {
	if !c.returned() {
		return "still waiting"
	}
	if c.err != nil {
		return fmt.Sprintf("error %q", c.err)
	}
	return fmt.Sprintf("%q, no error", c.val)
}

// fatalf records the failure (the stuck message repeats it) and stops the test.
func (h *chkHarness) fatalf(t *testing.T, format string, args ...any) {
	t.Helper()
	h.mu.Lock()
	h.fails = append(h.fails, fmt.Sprintf(format, args...))
	h.mu.Unlock()
	t.Fatalf(format, args...)
}

// cleanup ends every load still running and cancels every caller, then
// reports goroutines the Group left behind. It runs in the bubble, also
// after a Fatal.
func (h *chkHarness) cleanup() string {
	h.step("the test ended every load still running and cancelled every caller")
	// End the loads first, so each caller still waiting gets its result;
	// again while ending one lets a Group start another.
	for range 100 {
		h.mu.Lock()
		var fs []*chkFlight
		for _, f := range h.flights {
			if !f.ended {
				fs = append(fs, f)
			}
		}
		h.mu.Unlock()
		if len(fs) == 0 {
			break
		}
		for _, f := range fs {
			select {
			case f.end <- chkOutcome{err: errors.New("the test ended")}:
			default:
			}
		}
		synctest.Wait()
	}
	h.mu.Lock()
	cs := slices.Clone(h.callers)
	h.mu.Unlock()
	for _, c := range cs {
		c.cancel()
	}
	synctest.Wait()
	var waiting []string
	for _, c := range cs {
		if !c.returned() {
			waiting = append(waiting, fmt.Sprintf("caller %d (%s)", c.id, c.key))
		}
	}
	if len(waiting) > 0 {
		return fmt.Sprintf("%s still inside Load after every load ended and every caller's context was cancelled", strings.Join(waiting, ", "))
	}
	var left []string
	for _, g := range chkGoroutines() {
		left = append(left, g.String())
	}
	if len(left) > 0 {
		return fmt.Sprintf("%d goroutine(s) still alive after every caller returned and every load ended "+
			"(a goroutine per caller or per load must end with it):\n%s", len(left), strings.Join(left, "\n"))
	}
	return ""
}

// ignoreDeadlock: goroutines left blocked make synctest panic when f
// returns; the harness's cleanup has already said which goroutines are left.
var ignoreDeadlock func(error) string

// chkBubble runs f in a child process (a crash is then a failure that says
// what happened) and in a synctest bubble, watched in real time
// (internal/harness/bubble): stuck for chkStuckAfter, the child says what the test
// was doing and which goroutines are left, and ends.
func chkBubble(t *testing.T, f func(t *testing.T, h *chkHarness)) {
	t.Helper()
	if chkIsolated(t) {
		return
	}
	var h *chkHarness
	var mu sync.Mutex
	stuck := func() []string {
		mu.Lock()
		hh := h
		mu.Unlock()
		var said []string
		if hh != nil {
			hh.mu.Lock()
			said = append(said, hh.fails...)
			said = append(said, fmt.Sprintf("the test was stuck for %v (real time) while %s.", chkStuckAfter, hh.doing))
			hh.mu.Unlock()
		}
		return append(said, chkStuckGoroutines())
	}
	leak := ""
	bubble.Watched(t, chkStuckAfter, stuck, ignoreDeadlock, func(t *testing.T) {
		mu.Lock()
		h = chkNewHarness()
		mu.Unlock()
		t.Cleanup(func() { leak = h.cleanup() })
		f(t, h)
	})
	if leak != "" {
		t.Error(leak)
	}
}

// chkG is one goroutine of the dump: its id, state and the first frame that
// is neither the runtime's nor the sync package's.
type chkG struct{ id, state, frame string }

func (g chkG) String() string { return fmt.Sprintf("  goroutine [%s] at %s", g.state, g.frame) }

// chkGoroutines lists the goroutines of the synctest bubble but its root and
// the testing package's own.
func chkGoroutines() []chkG {
	var gs []chkG
	for _, block := range strings.Split(chkStacks(), "\n\n") {
		lines := strings.Split(block, "\n")
		head := lines[0]
		if !strings.Contains(head, "synctest bubble") || !strings.HasPrefix(head, "goroutine ") ||
			strings.Contains(block, "\ncreated by testing") {
			continue
		}
		id, state, _ := strings.Cut(strings.TrimPrefix(head, "goroutine "), " [")
		state, _, _ = strings.Cut(state, ", synctest bubble")
		if state == "running" || strings.HasPrefix(state, "synctest.Run") {
			continue
		}
		gs = append(gs, chkG{id: id, state: state, frame: chkFirstOwnFrame(lines[1:])})
	}
	return gs
}

// chkStacks is every goroutine's stack.
func chkStacks() string {
	for n := 64 << 10; ; n *= 2 {
		buf := make([]byte, n)
		if m := runtime.Stack(buf, true); m < n {
			return string(buf[:m])
		}
	}
}

func chkFirstOwnFrame(lines []string) string {
	for i := 0; i+1 < len(lines); i += 2 {
		fn := lines[i]
		if strings.HasPrefix(fn, "runtime.") || strings.HasPrefix(fn, "sync.") || strings.HasPrefix(fn, "internal/") ||
			strings.HasPrefix(fn, "created by") {
			continue
		}
		fn, _, _ = strings.Cut(fn, "(0x")
		if i := strings.LastIndex(fn, "("); i > 0 && strings.HasSuffix(fn, ")") && !strings.Contains(fn[i:], "*") {
			fn = fn[:i] // the arguments
		}
		file, _, _ := strings.Cut(strings.TrimSpace(lines[i+1]), " +0x")
		return fmt.Sprintf("%s (%s)", fn, file[strings.LastIndex(file, "/")+1:])
	}
	return "?"
}

// chkStuckGoroutines says where the bubble's goroutines that no fake clock can
// move are blocked.
func chkStuckGoroutines() string {
	counts := map[string]int{}
	for _, block := range strings.Split(chkStacks(), "\n\n") {
		lines := strings.Split(block, "\n")
		if !strings.Contains(lines[0], "synctest bubble") || strings.Contains(lines[0], "durable") {
			continue
		}
		_, state, _ := strings.Cut(lines[0], " [")
		state, _, _ = strings.Cut(state, ", synctest bubble")
		if strings.HasPrefix(state, "synctest.Run") {
			continue
		}
		counts[fmt.Sprintf("[%s] at %s", state, chkFirstOwnFrame(lines[1:]))]++
	}
	if len(counts) == 0 {
		return "No goroutine of the test is blocked outside channels and timers."
	}
	var s []string
	for where, n := range counts {
		s = append(s, fmt.Sprintf("  %d goroutine(s) %s", n, where))
	}
	slices.Sort(s)
	return "Blocked on something only another goroutine can release (not a channel, not a timer):\n" + strings.Join(s, "\n") +
		"\nA lock held while a load runs makes every caller that takes it wait for that load, whatever its key or its ctx."
}
