package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"log"
	"maps"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/peakload/workshop/internal/given/writes"
	"github.com/peakload/workshop/internal/harness/testseed"
)

// Generated schedules against a model. Each seed draws a batcher (batch
// size, capacity) and a schedule of steps: Adds from several goroutines
// at once, time passing (from a quarter interval to a quiet minute),
// writes failing wholly or for some of their documents, then Close and
// Adds after it. After every step the run is held to the model:
//
//   - each accepted event is written exactly once, and nothing refused or
//     never added is written;
//   - no event waits longer than the interval plus slack, unless the
//     database was failing meanwhile;
//   - what is accepted but not written stays within capacity + one batch;
//   - no write holds more than a batch, and writes of a partial batch are
//     at most one per interval (and one for Close): one write per flush;
//   - Add never waits; Close returns, leaving nothing behind; after it Add
//     answers ErrClosed and nothing more is written.
//
// A failure prints the seed, to replay it (PEAKLOAD_SEED=n), and the
// shortest schedule that still breaks the promise.

const modelInterval = 100 * time.Millisecond

// step is one step of a schedule.
type step struct {
	kind string // add, sleep, fail, failpart, close
	n    int    // events to add, or writes to fail
	par  int    // goroutines adding at once
	d    time.Duration
}

func (s step) String() string {
	switch s.kind {
	case "add":
		return fmt.Sprintf("add %s from %s at once", plural(s.n, "event"), plural(s.par, "goroutine"))
	case "sleep":
		return fmt.Sprintf("let %s pass", s.d)
	case "fail":
		return fmt.Sprintf("the next %s fail wholly (connection refused)", plural(s.n, "write"))
	case "failpart":
		return fmt.Sprintf("the next %s fail for every other document and write the rest", plural(s.n, "write"))
	}
	return "Close"
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

type schedule struct {
	size, capacity int
	steps          []step
}

func (s schedule) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "New(size %d, capacity %d, interval %s), then:", s.size, s.capacity, modelInterval)
	for i, st := range s.steps {
		fmt.Fprintf(&b, "\n  %2d. %s", i+1, st)
	}
	return b.String()
}

func genSchedule(rng *rand.Rand) schedule {
	s := schedule{size: 2 + rng.IntN(9), capacity: 5 + rng.IntN(30)}
	pauses := []time.Duration{modelInterval / 4, modelInterval / 2, modelInterval, 3 * modelInterval / 2, 5 * modelInterval, time.Minute}
	for range 5 + rng.IntN(20) {
		switch k := rng.IntN(10); {
		case k < 4:
			s.steps = append(s.steps, step{kind: "add", n: 1 + rng.IntN(3*s.size), par: 1 + rng.IntN(4)})
		case k < 8:
			s.steps = append(s.steps, step{kind: "sleep", d: pauses[rng.IntN(len(pauses))]})
		case k < 9:
			s.steps = append(s.steps, step{kind: "fail", n: 1 + rng.IntN(3)})
		default:
			s.steps = append(s.steps, step{kind: "failpart", n: 1 + rng.IntN(3)})
		}
	}
	s.steps = append(s.steps, step{kind: "close"})
	if rng.IntN(2) == 0 {
		s.steps = append(s.steps, step{kind: "add", n: 1 + rng.IntN(3), par: 1 + rng.IntN(2)}, step{kind: "sleep", d: time.Minute})
	}
	return s
}

func TestGeneratedSchedulesKeepEveryPromise(t *testing.T) {
	log.SetOutput(io.Discard) // writes.Persist logs every retry: thousands of lines here
	defer log.SetOutput(os.Stderr)
	seeds := testseed.Seeds(t, 300)
	for _, seed := range seeds {
		s := genSchedule(rand.New(rand.NewPCG(seed, 6)))
		broken := runSchedule(t, s)
		if broken == "" {
			continue
		}
		short, why := shrink(t, s, broken)
		t.Fatalf("seed %d broke a promise (replay: PEAKLOAD_SEED=%d make step-6 check):\n%s\n\n"+
			"The shortest schedule that still breaks it (%d of %d steps):\n%s\n\n%s",
			seed, seed, broken, len(short.steps), len(s.steps), short, why)
	}
}

// shrink drops steps (and makes Adds smaller) while the schedule still
// breaks a promise, and returns the shortest it found with what it broke.
func shrink(t *testing.T, s schedule, broken string) (schedule, string) {
	for changed := true; changed; {
		changed = false
		for i := 0; i < len(s.steps); i++ {
			var tries []schedule
			if s.steps[i].kind != "close" {
				tries = append(tries, schedule{s.size, s.capacity, slices.Delete(slices.Clone(s.steps), i, i+1)})
			}
			if st := s.steps[i]; st.kind == "add" && (st.n > 1 || st.par > 1) {
				smaller := slices.Clone(s.steps)
				smaller[i].n, smaller[i].par = max(1, st.n/2), 1
				tries = append(tries, schedule{s.size, s.capacity, smaller})
			}
			for _, try := range tries {
				if why := runSchedule(t, try); why != "" {
					s, broken, changed = try, why, true
					i--
					break
				}
			}
		}
	}
	return s, broken
}

// runSchedule runs s in a synctest bubble and returns the first broken
// promise ("" if none).
func runSchedule(t *testing.T, s schedule) (broken string) {
	// The bubble's *testing.T is not failed: the verdict is returned.
	deadlock := inBubbleFor(t, 30*time.Second, func(*testing.T) { broken = execute(s) })
	return cmp.Or(broken, deadlock)
}

// model is what the run should have done: the events accepted, when.
type model struct {
	start    time.Time
	accepted map[int]time.Time // event → when Add returned nil
	refused  map[int]error
}

func execute(s schedule) (broken string) {
	r := newRecorder()
	b := New(s.size, s.capacity, modelInterval, r.write)
	m := model{start: time.Now(), accepted: map[int]time.Time{}, refused: map[int]error{}}
	closed, next := false, 0
	defer func() {
		if !closed {
			_ = closeWithin(b, time.Hour)
		}
	}()
	for i, st := range s.steps {
		switch st.kind {
		case "add":
			if why := m.add(b, next, st, closed); why != "" {
				return fmt.Sprintf("at step %d (%s): %s", i+1, st, why)
			}
			next += st.n
		case "sleep":
			time.Sleep(st.d)
		case "fail":
			r.setFail(st.n, 0)
		case "failpart":
			r.setFail(0, st.n)
		case "close":
			err := closeWithin(b, 10*time.Minute)
			r.markClosed()
			closed = true
			if err != nil {
				return fmt.Sprintf("at step %d (Close): Close returned %v, the database answering (at most 3 failed writes)", i+1, err)
			}
		}
		synctest.Wait()
		if why := m.check(r, s, closed); why != "" {
			return fmt.Sprintf("after step %d (%s), at %s: %s", i+1, st, time.Since(m.start), why)
		}
	}
	return ""
}

// add runs step st: st.n events from st.par goroutines at once.
func (m *model) add(b *Batcher, first int, st step, closed bool) string {
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := time.Now()
	for g := range st.par {
		wg.Go(func() {
			for n := first + g; n < first+st.n; n += st.par {
				err := add(b, n)
				mu.Lock()
				if err == nil {
					m.accepted[n] = time.Now()
				} else {
					m.refused[n] = err
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if waited := time.Since(start); waited > 0 {
		return fmt.Sprintf("the Adds waited %s: Add must answer at once (nil, ErrFull when the buffer is full)", waited)
	}
	for n := first; n < first+st.n; n++ {
		err, refused := m.refused[n]
		switch {
		case closed && !errors.Is(err, writes.ErrClosed):
			return fmt.Sprintf("Add(event %d) after Close returned %v, want ErrClosed", n, err)
		case !closed && refused && !errors.Is(err, writes.ErrFull):
			return fmt.Sprintf("Add(event %d) before Close returned %v, want nil or ErrFull", n, err)
		}
	}
	return ""
}

// check holds the run so far to the model.
func (m *model) check(r *recorder, s schedule, closed bool) string {
	if odd := r.oddities(); odd != "" {
		return odd
	}
	seen, at, sizes := r.timesWritten(), r.writtenAt(), r.sent()
	for _, n := range slices.Sorted(maps.Keys(seen)) {
		_, ok := m.accepted[n]
		switch err, refused := m.refused[n]; {
		case refused:
			return fmt.Sprintf("event %d was refused by Add (%v) and written anyway", n, err)
		case !ok:
			return fmt.Sprintf("event %d was written before its Add returned", n)
		case seen[n] > 1:
			return fmt.Sprintf("event %d was written %d times, want once (the writes: %v)", n, seen[n], sizes)
		}
	}
	now, late := time.Now(), modelInterval+modelInterval/2
	waiting := 0
	for _, n := range slices.Sorted(maps.Keys(m.accepted)) {
		added := m.accepted[n]
		done, ok := at[n]
		if !ok {
			waiting++
			if closed {
				return fmt.Sprintf("event %d was accepted and never written: Close returned without it", n)
			}
			done = now
		}
		if done.Sub(added) > late && !r.failingDuring(added, added.Add(late)) {
			state := fmt.Sprintf("written %s later", done.Sub(added))
			if !ok {
				state = fmt.Sprintf("still not written %s later", done.Sub(added))
			}
			return fmt.Sprintf("event %d, added at %s, was %s, with the database answering every write: "+
				"an event waits at most the interval (%s) after its batch's first one", n, added.Sub(m.start), state, modelInterval)
		}
	}
	if waiting > s.capacity+s.size {
		return fmt.Sprintf("%d accepted events not written yet: more than capacity (%d) + one batch (%d) held in memory",
			waiting, s.capacity, s.size)
	}
	offered, partial := map[int]bool{}, 0
	for _, ids := range sizes {
		if len(ids) > s.size {
			return fmt.Sprintf("a write of %d documents: at most the batch size (%d)", len(ids), s.size)
		}
		fresh := false
		for _, n := range ids {
			fresh = fresh || !offered[n]
			offered[n] = true
		}
		if fresh && len(ids) < s.size {
			partial++
		}
	}
	if allowed := int(time.Since(m.start)/modelInterval) + 2; partial > allowed {
		return fmt.Sprintf("%d writes of a partial batch in %s with a %s interval (writes of %v documents): "+
			"want at most one per interval and one at Close — one write per flush, not per event", partial, time.Since(m.start), modelInterval, lens(sizes))
	}
	return ""
}

func lens(calls [][]int) []int {
	out := make([]int, len(calls))
	for i, c := range calls {
		out[i] = len(c)
	}
	return out
}
