package bubble

import (
	"bytes"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/peakload/workshop/internal/given/messages"
)

// A test outside a bubble (its code talks to a real database, or it needs
// goroutines that truly run at once) cannot ask synctest.Wait whether
// anything is still going on. It can read the goroutines' states from a
// stack dump, which the runtime takes with the world stopped: when every
// goroutine waits for something, nothing changes until the test acts. That
// is an observation, not a guess from a clock, so its answer does not depend
// on the machine's load. Unlike synctest it counts a goroutine blocked on a
// mutex as waiting: a lock held across a wait that never ends is seen too.

// dump is Settled's buffer, kept: a dump is tens of kilobytes.
var dump = struct {
	sync.Mutex
	buf []byte
}{buf: make([]byte, 1<<16)}

// dumpStacks is every goroutine's stack, the caller's first, read into
// dump.buf (grown until they fit): the caller holds dump's lock while it
// reads them.
func dumpStacks() []byte {
	for {
		if n := runtime.Stack(dump.buf, true); n < len(dump.buf) {
			return dump.buf[:n]
		}
		dump.buf = make([]byte, 2*len(dump.buf))
	}
}

// Settled says whether every goroutine but the caller whose stack holds
// match ("" for all of them) waits for something: a channel, a lock, a
// WaitGroup, I/O. One running, runnable, in a system call or sleeping may
// yet change something on its own.
func Settled(match string) bool { return settled(match, false, false) }

// Idle is Settled("") with a goroutine asleep (time.Sleep) counted as
// waiting too: for code beside a library that keeps a goroutine sleeping
// between rounds of housekeeping (fasthttp's worker pool sleeps 10 s at a
// time), so Settled would wait that long, when what is awaited never
// follows from a sleep ending.
func Idle() bool { return settled("", false, true) }

// Quiet is Settled with a goroutine waiting on I/O counted as still going:
// for code that may wait on a real service, whose answer is on its way.
// (A driver's own goroutine that always reads a socket keeps it false:
// the caller's watchdog then decides, saying the machine may be slow.)
func Quiet() bool { return settled("", true, false) }

func settled(match string, ioGoes, sleepWaits bool) bool {
	dump.Lock()
	defer dump.Unlock()
	stacks := dumpStacks()
	blocks := bytes.Split(stacks, []byte("\n\n"))
	for _, b := range blocks[1:] { // [0] is the caller's
		if match != "" && !bytes.Contains(b, []byte(match)) {
			continue
		}
		_, state, _ := bytes.Cut(b, []byte("["))
		state, _, _ = bytes.Cut(state, []byte("]"))
		// A real sleep ends on its own; a bubble's ("sleep (durable)") only
		// when its bubble's clock moves. A collection the test asked for
		// waits on the runtime's own workers, which end it.
		kind := waitKind(string(state))
		if !waits(kind) || kind == "sleep" && !sleepWaits || bytes.Contains(b, []byte("\nruntime.GC(")) ||
			ioGoes && kind == "IO wait" {
			return false
		}
	}
	return true
}

// waitStates are the states (as a stack dump prints them, after the "[")
// of a goroutine that waits for something: another goroutine of the
// program (a channel, a lock, a WaitGroup), I/O, a sleep, or the runtime's
// idle workers' next job. Any other state may change something on its own:
// running, runnable, in a system call, preempted, and the runtime's own
// passing waits — an allocation that starts a collection waits on the
// runtime's semaphores ("semacquire") while another goroutine stops the
// world, as the stack dump read here does.
var waitStates = []string{
	"chan receive", "chan send", "chan receive (nil chan)", "chan send (nil chan)", "select", "select (no cases)",
	"sync.Mutex.Lock", "sync.RWMutex.Lock", "sync.RWMutex.RLock", "sync.Cond.Wait", "sync.WaitGroup.Wait",
	"IO wait", "sleep", "synctest.Run", "synctest.Wait", "coroutine",
	"finalizer wait", "cleanup wait", "GC worker (idle)", "GC sweep wait", "GC scavenge wait", "force gc (idle)",
	"GOMAXPROCS updater (idle)",
}

// waits says whether a goroutine of state kind (waitKind) waits for
// something (waitStates), " (durable)" or not: a bubble's wait, which
// another of its goroutines or its clock ends.
func waits(kind string) bool {
	return slices.Contains(waitStates, strings.TrimSuffix(kind, " (durable)"))
}

// waitKind is a goroutine's state without what a stack dump adds to it:
// how long it has waited (", 2 minutes"), its bubble, and the qualifiers
// " (scan)" (the collector reads its stack now) and " (leaked)".
func waitKind(state string) string {
	kind, _, _ := strings.Cut(state, "]")
	kind, _, _ = strings.Cut(kind, ",")
	for _, q := range []string{" (leaked)", " (scan)"} {
		kind = strings.Replace(kind, q, "", 1)
	}
	return kind
}

// Until waits, in real time, until cond holds (true) or every goroutine
// but the caller waits with cond still false (false: nothing will make it
// hold until the test acts; the caller states what was observed). The
// limit is a watchdog, not a verdict: past it the test fails as timed
// out — the machine may be overloaded, or a goroutine spins — saying what
// was awaited and what each goroutine of the step's code was doing.
func Until(t testing.TB, limit time.Duration, awaited string, cond func() bool) bool {
	t.Helper()
	return until(t, limit, awaited, cond, func() bool { return Settled("") })
}

// UntilIdle is Until with a goroutine asleep counted as waiting (Idle).
func UntilIdle(t testing.TB, limit time.Duration, awaited string, cond func() bool) bool {
	t.Helper()
	return until(t, limit, awaited, cond, Idle)
}

func until(t testing.TB, limit time.Duration, awaited string, cond, settled func() bool) bool {
	t.Helper()
	start, pause, still := time.Now(), 10*time.Microsecond, 0
	for !cond() {
		// Twice in a row, a pause apart: a state the runtime passes
		// through (a wait it ends itself) is not taken for the end.
		if still = map[bool]int{true: still + 1}[settled()]; still == 2 {
			return cond()
		}
		if time.Since(start) > limit {
			t.Fatalf("%s\n%s\n%s", messages.T("check.timed_out", t.Name(), limit),
				messages.T("check.awaited", awaited), strings.Join(Goroutines(), "\n"))
		}
		time.Sleep(pause) // let the goroutines run before the next dump
		pause = min(2*pause, time.Millisecond)
	}
	return true
}

// Stalled fails t, a test that waits on a real service, when what it
// awaited did not come within limit: a generous bound whose expiry is no
// verdict on the learner's code (a right answer gives it in milliseconds),
// so it says the machine stalled and names what was awaited.
func Stalled(t testing.TB, limit time.Duration, awaited string) {
	t.Helper()
	t.Log(messages.StallMark)
	t.Fatal(messages.T("check.stalled", t.Name(), limit, awaited))
}

// Locked says whether the newest synctest bubble can never move again: all
// of its goroutines are durably blocked (a channel, a timer) or blocked on
// a mutex, and at least one on a mutex. synctest moves fake time only when
// every goroutine is durably blocked, which a mutex wait is not, so such a
// bubble would hang until a watchdog: seen from a stack dump it is known
// at once, whatever the machine's load.
func Locked() bool {
	dump.Lock()
	defer dump.Unlock()
	stacks := dumpStacks()
	newest, locked, moving := 0, map[int]bool{}, map[int]bool{}
	caller := true
	for line := range bytes.Lines(stacks) {
		if !bytes.HasPrefix(line, []byte("goroutine ")) {
			continue
		}
		state, bubble, ok := bytes.Cut(line, []byte(", synctest bubble "))
		if !ok {
			// A goroutine outside may yet release a lock a bubble waits on.
			if _, kind, _ := bytes.Cut(state, []byte("[")); !caller && !waits(waitKind(string(kind))) {
				return false
			}
			caller = false
			continue
		}
		var id int
		if _, err := fmt.Sscanf(string(bubble), "%d", &id); err != nil {
			continue
		}
		newest = max(newest, id)
		_, state, _ = bytes.Cut(state, []byte("["))
		state, _, _ = bytes.Cut(state, []byte(",")) // ", 2 minutes": how long it has waited
		switch kind := string(state); {
		case strings.HasSuffix(kind, "(durable)"):
		case onLock(kind):
			locked[id] = true
		default:
			moving[id] = true
		}
	}
	return newest > 0 && locked[newest] && !moving[newest]
}
