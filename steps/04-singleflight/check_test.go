package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/peakload/workshop/internal/given/metrics"
	"github.com/peakload/workshop/internal/harness/bubble"
	"github.com/peakload/workshop/internal/harness/crashtest"
	"github.com/peakload/workshop/internal/harness/stacktest"
)

// The in-memory tests run in a synctest bubble (harness_test.go): loads
// run until the test ends them, and synctest.Wait says when every caller
// is blocked, so "while the load is held" and "at once" need no sleep.

// chkIsolated runs the test in a child process: a Group that lets a panic
// through or writes a map without a lock then fails the test with what
// happened instead of crashing the whole check.
func chkIsolated(t *testing.T) bool {
	t.Helper()
	return crashtest.Isolated(t, "A panic in load must come back as an error (recover it inside the func you give DoChan); "+
		"a map shared by goroutines needs a lock.")
}

func chkValue(key string) []byte { return []byte("value of " + key) }

// chkWaitAll starts n callers of key, each with its own context, and waits
// until every one is blocked.
func chkWaitAll(h *chkHarness, n int, key string) []*chkCaller {
	cs := make([]*chkCaller, n)
	for i := range cs {
		cs[i] = h.call(context.Background(), key)
	}
	synctest.Wait()
	return cs
}

// The property of step 4, without a database: callers of one key that
// arrive while its load runs share that load.
func TestAStampedeOfOneKeyRunsOneLoad(t *testing.T) {
	chkBubble(t, func(t *testing.T, h *chkHarness) {
		const n = 100
		h.step("%d callers of item:1 arrived", n)
		cs := chkWaitAll(h, n, "item:1")
		if got := h.loads("item:1"); got != 1 {
			h.fatalf(t, "%d concurrent callers of item:1 started %d loads while the first was running; want 1", n, got)
		}
		h.finish("item:1", chkOutcome{val: chkValue("item:1")})
		for _, c := range cs {
			if !c.returned() || c.err != nil || !bytes.Equal(c.val, chkValue("item:1")) {
				h.fatalf(t, "caller %d of item:1, after its one load returned %q: %s; want that value", c.id, chkValue("item:1"), c)
			}
		}
	})
}

// Callers of many keys at once: one load per key, and each caller gets its
// own key's value, never another's.
func TestEachKeyHasItsOwnLoad(t *testing.T) {
	chkBubble(t, func(t *testing.T, h *chkHarness) {
		const keys, per = 20, 5
		var cs []*chkCaller
		for i := range keys * per {
			cs = append(cs, h.call(context.Background(), fmt.Sprintf("item:%d", i%keys)))
		}
		h.step("%d callers of %d keys arrived", keys*per, keys)
		synctest.Wait()
		for k := range keys {
			key := fmt.Sprintf("item:%d", k)
			if got := h.loads(key); got != 1 {
				h.fatalf(t, "%d callers of each of %d keys at once: %s had %d loads started; want 1 per key", per, keys, key, got)
			}
		}
		for k := range keys {
			key := fmt.Sprintf("item:%d", k)
			h.finish(key, chkOutcome{val: chkValue(key)})
		}
		for _, c := range cs {
			if c.err != nil || !bytes.Equal(c.val, chkValue(c.key)) {
				h.fatalf(t, "caller %d of %s got %s; want %q, its own key's value", c.id, c.key, c, chkValue(c.key))
			}
		}
	})
}

// One slow id must not hold the others: while item:1's load is held (with
// callers waiting on it), a miss of item:2 loads and returns.
func TestASlowKeyDoesNotHoldOtherKeys(t *testing.T) {
	chkBubble(t, func(t *testing.T, h *chkHarness) {
		h.step("item:1's load is held with 3 callers waiting on it; a caller of item:2 arrived")
		chkWaitAll(h, 3, "item:1")
		b := h.call(context.Background(), "item:2")
		synctest.Wait()
		if len(h.running("item:2")) == 0 && !b.returned() {
			h.fatalf(t, "while item:1's load was held, a caller of item:2 had started no load of item:2 (it is %s); "+
				"want item:2 loaded at once: a key shares a load only with callers of the same key", b)
		}
		h.finish("item:2", chkOutcome{val: chkValue("item:2")})
		if !b.returned() || b.err != nil || !bytes.Equal(b.val, chkValue("item:2")) {
			h.fatalf(t, "while item:1's load was held, item:2's load returned %q; the caller of item:2: %s; want that value at once",
				chkValue("item:2"), b)
		}
	})
}

// Only loads in flight are shared: a call that starts after the previous
// load finished loads again. A Group that kept results would be a cache
// with no TTL — the item would never change again.
func TestALoadThatFinishedIsNotKept(t *testing.T) {
	chkBubble(t, func(t *testing.T, h *chkHarness) {
		for i := range 3 {
			want := []byte(fmt.Sprintf("version %d", i+1))
			h.step("call %d of k, made after the previous one returned", i+1)
			c := h.call(context.Background(), "k")
			synctest.Wait()
			h.finish("k", chkOutcome{val: want})
			if c.err != nil || !bytes.Equal(c.val, want) || h.loads("k") != i+1 {
				h.fatalf(t, "call %d of k, made after the previous one returned: %s after %d loads; want %q from a load of its own "+
					"(coalesce only the loads in flight: singleflight forgets a key when its load returns)", i+1, c, h.loads("k"), want)
			}
		}
	})
}

// A failed load reaches every caller waiting on it, as the load's error
// (errors.Is: the handler tells 404 from 500 by it), and is not kept: the
// next call loads again.
func TestAFailedLoadReachesEveryWaiterAndIsNotKept(t *testing.T) {
	chkBubble(t, func(t *testing.T, h *chkHarness) {
		const n = 50
		boom := errors.New("database down")
		h.step("%d callers of k arrived", n)
		cs := chkWaitAll(h, n, "k")
		loads := h.loads("k")
		h.finish("k", chkOutcome{err: boom})
		var same, other, none, waiting int
		var example error
		for _, c := range cs {
			switch {
			case !c.returned():
				waiting++
			case errors.Is(c.err, boom):
				same++
			case c.err != nil:
				other++
				example = c.err
			default:
				none++
			}
		}
		if other > 0 {
			h.fatalf(t, "the load of k failed with %q: %d of %d callers got an error that is not errors.Is that error (e.g. %q); "+
				"%d got it, %d got no error, %d are still waiting. "+
				"Wrap with %%w (or return the error as is): the handler answers 404 only when errors.Is(err, catalog.ErrNotFound)",
				boom, other, n, example, same, none, waiting)
		}
		if same != n || loads != 1 {
			h.fatalf(t, "%d callers of k at once started %d load(s); it failed with %q: %d callers got that error, %d got no error, "+
				"%d are still waiting (with %d loads of k started in all); want 1 load and all %d callers with its error",
				n, loads, boom, same, none, waiting, h.loads("k"), n)
		}
		h.step("a call of k after its load failed")
		c := h.call(context.Background(), "k")
		synctest.Wait()
		h.finish("k", chkOutcome{val: chkValue("k")})
		if c.err != nil || !bytes.Equal(c.val, chkValue("k")) {
			h.fatalf(t, "the call after the failed load: %s after %d loads in all; want %q from a new load (an error must not be kept)",
				c, h.loads("k"), chkValue("k"))
		}
	})
}

// A panicking load is an error for every caller waiting on it, not a
// crashed server, and the next call loads again.
func TestAPanicInTheLoadIsAnErrorForEveryCaller(t *testing.T) {
	// A load may panic with anything: a message, an error, the runtime's
	// own error (a nil map written), a value of some other type.
	var nilMap map[string]int
	runtimeErr := func() (p any) {
		defer func() { p = recover() }()
		nilMap["x"]++
		return nil
	}()
	for _, v := range []struct {
		what  string
		value any
	}{
		{"a string", "bug in the loader"},
		{"an error value", errors.New("bug in the loader")},
		{"a runtime error", runtimeErr},
		{"a value of another type", struct{ Code int }{500}},
	} {
		t.Run(v.what, func(t *testing.T) {
			chkBubble(t, func(t *testing.T, h *chkHarness) {
				const n = 20
				h.step("%d callers of k wait for a load that panics with %s", n, v.what)
				cs := chkWaitAll(h, n, "k")
				h.finish("k", chkOutcome{panic: v.value})
				for _, c := range cs {
					if !c.returned() || c.err == nil || strings.Contains(c.err.Error(), "in the caller's goroutine") {
						h.fatalf(t, "the load of k panicked with %s (%T): caller %d got %s; want an error, returned by Load, "+
							"whatever the panic's value (recover inside the func you give DoChan)", v.what, v.value, c.id, c)
					}
				}
				c := h.call(context.Background(), "k")
				synctest.Wait()
				h.finish("k", chkOutcome{val: chkValue("k")})
				if c.err != nil || !bytes.Equal(c.val, chkValue("k")) {
					h.fatalf(t, "the call after the load that panicked: %s; want %q from a new load", c, chkValue("k"))
				}
			})
		})
	}
}

// A caller whose client gives up (its ctx cancelled, or past its deadline)
// returns at once with its ctx's error, while the load goes on for the
// caller that started it.
func TestACallerThatGivesUpReturnsAtOnce(t *testing.T) {
	chkBubble(t, func(t *testing.T, h *chkHarness) {
		h.step("a caller of k started its load; two more wait, one is cancelled, one has a 100ms deadline")
		other := h.call(context.Background(), "k")
		synctest.Wait()
		dl, stop := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer stop()
		first := h.call(context.Background(), "k")
		late := h.call(dl, "k")
		synctest.Wait()
		first.cancel()
		synctest.Wait()
		if !first.returned() || !errors.Is(first.err, context.Canceled) {
			h.fatalf(t, "a caller of k whose ctx was cancelled while k's load ran: %s; want context.Canceled at once "+
				"(select on the result and ctx.Done())", first)
		}
		time.Sleep(100 * time.Millisecond) // the bubble's fake clock: exact, and instant
		synctest.Wait()
		if !late.returned() || !errors.Is(late.err, context.DeadlineExceeded) || late.at.Sub(h.start) > 100*time.Millisecond {
			h.fatalf(t, "a caller of k with a 100ms deadline, k's load still running at 100ms: %s at %v; want context.DeadlineExceeded at 100ms",
				late, late.at.Sub(h.start))
		}
		if other.returned() {
			h.fatalf(t, "a caller of k that did not give up returned while k's load was still running: %s", other)
		}
	})
}

// The shared load belongs to no caller: when the caller that started it
// is cancelled or reaches its deadline, the load goes on and the others
// get the value.
func TestTheSharedLoadOutlivesTheCallerThatStartedIt(t *testing.T) {
	for _, how := range []string{"cancelled", "past its 100ms deadline"} {
		t.Run(strings.ReplaceAll(how, " ", "_"), func(t *testing.T) {
			chkBubble(t, func(t *testing.T, h *chkHarness) {
				ctx := context.Background()
				if how != "cancelled" {
					var stop context.CancelFunc
					ctx, stop = context.WithTimeout(ctx, 100*time.Millisecond)
					defer stop()
				}
				h.step("the first caller of k is %s, others wait", how)
				first := h.call(ctx, "k")
				synctest.Wait()
				others := chkWaitAll(h, 2, "k")
				if how == "cancelled" {
					first.cancel()
				}
				time.Sleep(500 * time.Millisecond) // fake clock
				synctest.Wait()
				if err := h.ctxEnded("k"); err != nil {
					h.fatalf(t, "the first caller of k was %s; 500ms into k's load, %v; another caller of k got %s; "+
						"want the load to run on (its context detached with context.WithoutCancel, with a timeout of its own)", how, err, others[0])
				}
				h.finish("k", chkOutcome{val: chkValue("k")})
				for _, c := range others {
					if c.err != nil || !bytes.Equal(c.val, chkValue("k")) {
						h.fatalf(t, "the first caller of k was %s; the load then returned %q; caller %d got %s; want that value", how, chkValue("k"), c.id, c)
					}
				}
			})
		})
	}
}

// A caller that gives up leaves the load in flight: the next caller of the
// key joins it instead of starting a second one, even when every earlier
// caller has gone.
func TestAWaiterGivingUpStartsNoSecondLoad(t *testing.T) {
	chkBubble(t, func(t *testing.T, h *chkHarness) {
		h.step("the only caller of k gave up; a new caller arrived while k's load still ran")
		first := h.call(context.Background(), "k")
		synctest.Wait()
		first.cancel()
		synctest.Wait()
		next := h.call(context.Background(), "k")
		synctest.Wait()
		if n := h.loads("k"); n != 1 {
			h.fatalf(t, "the only caller of k gave up while k's load ran (it got %s); the next caller started load number %d; "+
				"want it to join the load in flight (a load still serves the callers after one gave up)", first, n)
		}
		h.finish("k", chkOutcome{val: chkValue("k")})
		if next.err != nil || !bytes.Equal(next.val, chkValue("k")) {
			h.fatalf(t, "the caller that joined the load k's first caller gave up on: %s; want %q", next, chkValue("k"))
		}
	})
}

type chkTraceKey struct{}

// The load's context keeps the caller's values (trace ids, loggers).
func TestTheLoadKeepsTheCallersValues(t *testing.T) {
	chkBubble(t, func(t *testing.T, h *chkHarness) {
		h.step("one caller of k with a trace id")
		h.call(context.WithValue(context.Background(), chkTraceKey{}, "trace-42"), "k")
		synctest.Wait()
		fs := h.running("k")
		if len(fs) != 1 {
			h.fatalf(t, "one caller of k: %d loads running; want 1", len(fs))
		}
		if got := fs[0].ctx.Value(chkTraceKey{}); got != "trace-42" {
			h.fatalf(t, "the caller's ctx holds trace id \"trace-42\"; the load's ctx holds %v: detach it with "+
				"context.WithoutCancel(ctx), not context.Background()", got)
		}
	})
}

// A hung database cannot hold every waiter forever: a load that never
// returns ends on its own deadline, and its callers get an error. (A
// timeout on the waiters alone would leave the load, and the key, hung.)
func TestAHungLoadEndsOnItsOwnDeadline(t *testing.T) {
	chkBubble(t, func(t *testing.T, h *chkHarness) {
		// The deadline is each load's own, from its start: one made once and
		// kept (a package-level context, a sync.Once) ends every later load.
		h.step("a first load of k0, then an hour of quiet")
		h.call(context.Background(), "k0")
		synctest.Wait()
		h.finish("k0", chkOutcome{val: chkValue("k0")})
		time.Sleep(time.Hour) // fake clock
		h.step("two callers without deadlines wait for a load that only its context can end")
		cs := chkWaitAll(h, 2, "k")
		if err := h.ctxEnded("k"); err != nil {
			h.fatalf(t, "a load started an hour after the first: %v, before anything could end it; want a deadline of its own, "+
				"counted from its start (context.WithTimeout inside the func you give DoChan, not a context made once and kept)", err)
		}
		time.Sleep(time.Minute) // fake clock
		synctest.Wait()
		for _, c := range cs {
			if !c.returned() || c.err == nil {
				h.fatalf(t, "a load that never returns, callers without deadlines: after 1 minute caller %d is %s; "+
					"want an error once the load's own timeout ends it (context.WithTimeout around the detached context)", c.id, c)
			}
		}
		if n := len(h.running("k")); n > 0 {
			h.fatalf(t, "a load that never returns, callers without deadlines: the callers got errors, but after 1 minute the load's "+
				"context has not ended (the load still runs, and every later caller of k would join it); want the load itself to time out")
		}
	})
}

// Load leaves nothing behind: once every caller has returned (some gave up)
// and every load has ended, no goroutine it started is still alive.
func TestLoadLeavesNoGoroutineBehind(t *testing.T) {
	chkBubble(t, func(t *testing.T, h *chkHarness) {
		h.step("callers of 3 keys, half of them giving up")
		var cs []*chkCaller
		for i := range 12 {
			cs = append(cs, h.call(context.Background(), fmt.Sprintf("k%d", i%3)))
		}
		synctest.Wait()
		for i, c := range cs {
			if i%2 == 0 {
				c.cancel()
			}
		}
		synctest.Wait()
		for k := range 3 {
			h.finish(fmt.Sprintf("k%d", k), chkOutcome{val: chkValue("k")})
		}
		// The bubble's cleanup names any goroutine left.
	})
}

// The Group survives being used from all CPUs at once, without a fake
// clock. A map shared without a lock is a data race whether or not two
// goroutines happen to meet in it: the race detector sees the missing
// lock on any run, so where it is available (cgo) the Group is first
// built alone with -race and used from two goroutines. Elsewhere the race
// shows only by chance ("concurrent map writes" in many rounds).
func TestTheGroupSurvivesParallelUse(t *testing.T) {
	if chkIsolated(t) {
		return
	}
	if report, skipped := chkRaceDetector(t); report != "" {
		t.Fatalf("two goroutines calling Load touched the Group's state with no lock or channel between them: a data race "+
			"(go test -race saw it, however the goroutines happened to run). Guard the map of loads in flight with a "+
			"sync.Mutex, or use singleflight.Group. What the race detector reported:\n%s", report)
	} else if skipped != "" {
		t.Logf("the race detector could not run (%s): a map shared without a lock is caught only by chance below", skipped)
	}
	var group Group
	const callers, keys = 400, 40
	// A data race shows by chance: many rounds, even on a loaded machine.
	crashtest.AtOnce(t, 200, callers, "want each key's own value", func(_, i int) string {
		key := fmt.Sprintf("item:%d", i%keys)
		b, err := group.Load(t.Context(), key, func(context.Context) ([]byte, error) { return []byte(key), nil })
		return crashtest.Wrong(fmt.Sprintf("Load(%q)", key), b, err, key)
	})
}

// The property of step 4: 1000 concurrent misses for one id → 1 DB query.
// (Last: the only test that needs PostgreSQL.)
func TestThousandConcurrentMissesMakeOneQuery(t *testing.T) {
	if chkIsolated(t) {
		return
	}
	store := stacktest.Store(t)
	var group Group
	const n = 1000
	var entered, loads atomic.Int64
	load := func(ctx context.Context) ([]byte, error) {
		// Hold the first load open until every caller has asked and waits
		// for it: a true stampede on any machine, however fast the database
		// or loaded the CPUs. A second load is not held: the property is
		// broken already.
		if loads.Add(1) == 1 {
			holdUntilCallersWait(t, n, &entered)
		}
		return store.ItemJSON(ctx, 4242)
	}
	before := testutil.ToFloat64(metrics.DBQueries)
	results := make([][]byte, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { results[i], errs[i] = stampedeCaller(t.Context(), &group, &entered, load) })
	}
	wg.Wait()
	if q := testutil.ToFloat64(metrics.DBQueries) - before; q != 1 {
		t.Fatalf("%d concurrent misses made %v DB queries, want exactly 1", n, q)
	}
	for i := range n {
		if errs[i] != nil || !bytes.Equal(results[i], results[0]) || len(results[0]) == 0 {
			t.Fatalf("caller %d: %v, %d bytes; every caller wants the one result", i, errs[i], len(results[i]))
		}
	}
}

// holdUntilCallersWait returns once all n callers have called Load and
// every one still running waits. The database keeps the stampede test out
// of a bubble, so the callers' waits are read from their stacks, not
// timed; the minute is a watchdog, not a verdict.
func holdUntilCallersWait(t *testing.T, n int64, entered *atomic.Int64) {
	for start := time.Now(); entered.Load() < n || !bubble.Settled(".stampedeCaller("); time.Sleep(time.Millisecond) {
		if time.Since(start) > time.Minute {
			t.Errorf("timed out (the machine may be overloaded): after a minute of real time, not all %d callers "+
				"waited for the load (%d had called Load), so it went on without them", n, entered.Load())
			return
		}
	}
}

// stampedeCaller is one caller of the stampede, named so that bubble.Settled
// finds it in a stack dump (bubble.Settled).
func stampedeCaller(ctx context.Context, g *Group, entered *atomic.Int64, load func(context.Context) ([]byte, error)) ([]byte, error) {
	entered.Add(1)
	return g.Load(ctx, "item:4242", load)
}

// BenchmarkLoad is the cost of coalescing itself: parallel callers of a few
// keys sharing loads that take no time. Run it with
// `go test -run '^$' -bench Load ./steps/04-singleflight/`.
func BenchmarkLoad(b *testing.B) {
	var group Group
	item := []byte("item")
	load := func(context.Context) ([]byte, error) { return item, nil }
	var next atomic.Int64
	b.RunParallel(func(pb *testing.PB) {
		ctx := context.Background()
		for pb.Next() {
			key := fmt.Sprintf("item:%d", next.Add(1)%8)
			if _, err := group.Load(ctx, key, load); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// chkRaceTest is the test the race detector runs on the Group alone: two
// goroutines calling Load, a few times, with keys shared and not.
const chkRaceTest = `package chkrace

import (
	"context"
	"sync"
	"testing"
)

func TestRace(t *testing.T) {
	var g Group
	for range 4 {
		var wg sync.WaitGroup
		for i := range 4 {
			wg.Go(func() {
				key := []string{"a", "b"}[i%2]
				_, _ = g.Load(context.Background(), key, func(context.Context) ([]byte, error) { return []byte(key), nil })
			})
		}
		wg.Wait()
	}
}
`

// chkRaceDetector builds the step's Group (the file go test built: the
// exercise, a variant the gate overlaid, or the reference) in a package
// of its own with -race, runs chkRaceTest and returns the race report's
// first lines ("" if none), or why it could not run.
func chkRaceDetector(t *testing.T) (report, skipped string) {
	srcs, err := chkGroupSources()
	if err != nil {
		return "", err.Error()
	}
	srcs["race_test.go"] = chkRaceTest
	dir := t.TempDir()
	wd, _ := os.Getwd()
	pkg := filepath.Join(wd, "chkrace") // a virtual directory: the overlay's files only
	replace := map[string]string{}
	for name, src := range srcs { // named as the learner's file, so the report points at its lines
		src = regexp.MustCompile(`(?m)^//go:build.*$`).ReplaceAllString(src, "")
		src = regexp.MustCompile(`(?m)^package \w+`).ReplaceAllString(src, "package chkrace")
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			return "", err.Error()
		}
		replace[filepath.Join(pkg, name)] = filepath.Join(dir, name)
	}
	overlay, _ := json.Marshal(map[string]map[string]string{"Replace": replace})
	if err := os.WriteFile(filepath.Join(dir, "overlay.json"), overlay, 0o644); err != nil {
		return "", err.Error()
	}
	bin := filepath.Join(dir, "race.test")
	build := exec.Command("go", "test", "-c", "-race", "-vet=off", "-o", bin, "-overlay", filepath.Join(dir, "overlay.json"), "./chkrace")
	build.Env = append(os.Environ(), "GOFLAGS=") // the gate's own overlay is read above, not applied twice
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Sprintf("go test -race: %v: %s", err, chkFirstLines(string(out), 2))
	}
	run := exec.Command(bin, "-test.count=1")
	run.Dir = dir
	out, _ := run.CombinedOutput()
	if !strings.Contains(string(out), "WARNING: DATA RACE") {
		return "", ""
	}
	_, race, _ := strings.Cut(string(out), "WARNING: DATA RACE")
	return chkFirstLines(strings.TrimSpace(race), 12), ""
}

// chkGroupSources is the Go source the test binary's Group came from: the
// reference's files under -tags solution, the file the gate overlaid on
// exercise.go (GOFLAGS=-overlay=…), or exercise.go.
func chkGroupSources() (map[string]string, error) {
	files := []string{"exercise.go"}
	if info, ok := debug.ReadBuildInfo(); ok && slices.ContainsFunc(info.Settings, func(s debug.BuildSetting) bool {
		return s.Key == "-tags" && slices.Contains(strings.Split(s.Value, ","), "solution")
	}) {
		all, _ := filepath.Glob(filepath.Join("..", "..", "solutions", filepath.Base(chkWd()), "*.go"))
		files = slices.DeleteFunc(all, func(f string) bool { return strings.HasSuffix(f, "_test.go") })
	} else if path, ok := chkOverlaid("exercise.go"); ok {
		files = []string{path}
	}
	srcs := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("reading the Group's source: %w", err)
		}
		srcs[filepath.Base(f)] = string(b)
	}
	return srcs, nil
}

// chkOverlaid is the file GOFLAGS' -overlay puts in place of name in this
// directory, if any.
func chkOverlaid(name string) (string, bool) {
	for _, f := range strings.Fields(os.Getenv("GOFLAGS")) {
		path, ok := strings.CutPrefix(f, "-overlay=")
		if !ok {
			continue
		}
		b, err := os.ReadFile(path)
		var o struct{ Replace map[string]string }
		if err != nil || json.Unmarshal(b, &o) != nil {
			continue
		}
		if r, ok := o.Replace[filepath.Join(chkWd(), name)]; ok {
			return r, true
		}
	}
	return "", false
}

func chkWd() string { wd, _ := os.Getwd(); return wd }

// chkFirstLines is s's first n lines.
func chkFirstLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	return strings.Join(lines[:min(n, len(lines))], "\n")
}
