package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/peakload/workshop/internal/crashtest"
	"github.com/peakload/workshop/internal/metrics"
	"github.com/peakload/workshop/internal/stacktest"
)

// gate holds every load open until all n callers have asked, so the test
// is a true stampede on any machine, however fast the database.
type gate struct {
	n       int
	entered atomic.Int64
}

func (g *gate) enter() { g.entered.Add(1) }

func (g *gate) wait() {
	deadline := time.Now().Add(10 * time.Second)
	for g.entered.Load() < int64(g.n) && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(20 * time.Millisecond) // let the last callers reach the group
}

// isolated runs the test in a child process: a Group that lets a panic
// through or writes a map without a lock then fails the test with what
// happened instead of crashing the whole check.
func isolated(t *testing.T) bool {
	t.Helper()
	return crashtest.Isolated(t, "A panic in load must come back as an error (recover it inside the func you give DoChan); "+
		"a map shared by goroutines needs a lock.")
}

// Only loads in flight are shared: a call that starts after the previous
// load finished loads again. A Group that kept results would be a cache
// with no TTL — the item would never change again.
func TestALoadThatFinishedIsNotKept(t *testing.T) {
	var group Group
	for i, want := range []string{"version 1", "version 2"} {
		got, err := group.Load(t.Context(), "k", func(context.Context) ([]byte, error) { return []byte(want), nil })
		if err != nil || string(got) != want {
			t.Fatalf("call %d, made after the previous one returned: %q, %v; want %q from its own load. "+
				"The Group kept a finished result: coalesce only the loads in flight (singleflight forgets a key when its load returns)",
				i+1, got, err, want)
		}
	}
}

// Different keys are different flights: a slow load of one item must
// neither delay nor answer the load of another.
func TestKeysDoNotShareOrWaitForEachOther(t *testing.T) {
	if isolated(t) {
		return
	}
	var group Group
	releaseA, enteredA := make(chan struct{}), make(chan struct{})
	aDone := make(chan []byte, 1)
	go func() {
		b, _ := group.Load(t.Context(), "item:1", func(context.Context) ([]byte, error) {
			close(enteredA)
			<-releaseA
			return []byte("item 1"), nil
		})
		aDone <- b
	}()
	defer func() { <-aDone }()
	defer close(releaseA)
	<-enteredA
	bDone := make(chan []byte, 1)
	go func() {
		b, _ := group.Load(t.Context(), "item:2", func(context.Context) ([]byte, error) { return []byte("item 2"), nil })
		bDone <- b
	}()
	select {
	case b := <-bDone:
		if string(b) != "item 2" {
			t.Fatalf("Load of item:2 returned %q: flights must be keyed by the key Load is given", b)
		}
	case <-time.After(time.Second):
		t.Fatal("Load of item:2 waited for the load of item:1: one lock (or one flight) around every load " +
			"makes all items queue behind the slowest; share a load only between callers of the same key")
	}
}

// Under a burst, many items miss at once, each from many callers: every
// caller gets its own item's value, and the Group survives being used from
// all CPUs at once (a map shared without a lock crashes here).
func TestManyKeysAtOnce(t *testing.T) {
	if isolated(t) {
		return
	}
	var group Group
	const callers, keys = 400, 40
	for round := range 200 {
		start := make(chan struct{})
		var wg sync.WaitGroup
		wrong := make(chan string, callers)
		for i := range callers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				key := fmt.Sprintf("item:%d", i%keys)
				<-start
				b, err := group.Load(t.Context(), key, func(context.Context) ([]byte, error) { return []byte(key), nil })
				if err != nil || string(b) != key {
					wrong <- fmt.Sprintf("Load(%q) = %q, %v", key, b, err)
				}
			}()
		}
		close(start)
		wg.Wait()
		close(wrong)
		for w := range wrong {
			t.Fatalf("round %d: %s; want each key's own value", round, w)
		}
	}
}

// A failed load reaches every waiter and is not kept: the next call loads again.
func TestErrorsReachEveryWaiterAndAreNotCached(t *testing.T) {
	if isolated(t) {
		return
	}
	var group Group
	const n = 50
	g := &gate{n: n}
	var loads atomic.Int64
	boom := errors.New("database down")
	failing := func(context.Context) ([]byte, error) { loads.Add(1); g.wait(); return nil, boom }
	var wg sync.WaitGroup
	var failed atomic.Int64
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g.enter()
			if _, err := group.Load(t.Context(), "k", failing); errors.Is(err, boom) {
				failed.Add(1)
			}
		}()
	}
	wg.Wait()
	if failed.Load() != n || loads.Load() != 1 {
		t.Fatalf("%d of %d callers got the error from %d loads; want all from 1", failed.Load(), n, loads.Load())
	}
	ok := func(context.Context) ([]byte, error) { loads.Add(1); return []byte("fresh"), nil }
	if b, err := group.Load(t.Context(), "k", ok); err != nil || string(b) != "fresh" {
		t.Fatalf("the load after a failure: %q, %v; want a new load, not the cached error", b, err)
	}
}

type traceKey struct{}

// The shared load no longer belongs to the first caller: its context keeps
// the caller's values (trace ids, loggers) but has a deadline of its own, so
// a hung database cannot hold every waiter forever.
func TestTheLoadRunsOnADetachedContextWithADeadline(t *testing.T) {
	var group Group
	ctx := context.WithValue(t.Context(), traceKey{}, "trace-42")
	var problems []string
	_, err := group.Load(ctx, "k", func(lctx context.Context) ([]byte, error) {
		if _, ok := lctx.Deadline(); !ok {
			problems = append(problems, "the load's context has no deadline: a hung database would hold every waiter forever "+
				"(context.WithTimeout around the detached context)")
		}
		if lctx.Value(traceKey{}) != "trace-42" {
			problems = append(problems, "the load's context lost the caller's values (trace ids, loggers): "+
				"detach it with context.WithoutCancel(ctx), not context.Background()")
		}
		return []byte("item"), nil
	})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	for _, p := range problems {
		t.Error(p)
	}
}

// One client giving up must not fail the others waiting on the same load.
func TestAWaiterGivingUpDoesNotFailTheOthers(t *testing.T) {
	var group Group
	slow := func(ctx context.Context) ([]byte, error) {
		select {
		case <-time.After(200 * time.Millisecond):
			return []byte("item"), nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	first, cancel := context.WithCancel(t.Context())
	firstDone := make(chan error, 1)
	go func() { _, err := group.Load(first, "k", slow); firstDone <- err }()
	time.Sleep(20 * time.Millisecond) // the first caller owns the load now
	secondDone := make(chan error, 1)
	var second []byte
	go func() { b, err := group.Load(t.Context(), "k", slow); second = b; secondDone <- err }()
	time.Sleep(20 * time.Millisecond)
	cancel()
	select {
	case err := <-firstDone:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("the caller that gave up got %v, want context.Canceled", err)
		}
	case <-time.After(100 * time.Millisecond):
		t.Fatal("the caller that gave up still waits for the load: wait with select on the result channel and ctx.Done()")
	}
	if err := <-secondDone; err != nil || string(second) != "item" {
		t.Fatalf("the other caller got %q, %v; want the item (the load must not run on the first caller's ctx)", second, err)
	}
}

// A panicking load is an error for every caller, not a crashed server.
func TestPanicIsAnError(t *testing.T) {
	if isolated(t) {
		return
	}
	var group Group
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("the loader's panic escaped Load (%v): recover it and return it as an error", r)
		}
	}()
	_, err := group.Load(t.Context(), "k", func(context.Context) ([]byte, error) { panic("bug in the loader") })
	if err == nil {
		t.Fatal("a panicking load returned no error")
	}
	time.Sleep(10 * time.Millisecond) // a panic re-raised in another goroutine crashes the process now
}

// The property of step 4: 1000 concurrent misses for one id → 1 DB query.
// (Last: the only test that needs PostgreSQL.)
func TestThousandConcurrentMissesMakeOneQuery(t *testing.T) {
	if isolated(t) {
		return
	}
	store := stacktest.Store(t)
	var group Group
	const n = 1000
	g := &gate{n: n}
	load := func(ctx context.Context) ([]byte, error) {
		g.wait()
		return store.ItemJSON(ctx, 4242)
	}
	before := testutil.ToFloat64(metrics.DBQueries)
	results := make([][]byte, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g.enter()
			results[i], errs[i] = group.Load(t.Context(), "item:4242", load)
		}()
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
