package main

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"weak"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/peakload/workshop/internal/catalog"
	"github.com/peakload/workshop/internal/crashtest"
	"github.com/peakload/workshop/internal/metrics"
	"github.com/peakload/workshop/internal/stacktest"
	cacheaside "github.com/peakload/workshop/solutions/02-cache-aside"
)

func redisGETs() float64 { return testutil.ToFloat64(metrics.RedisCommands.WithLabelValues("get")) }

func memoryLookups(result string) float64 {
	return testutil.ToFloat64(metrics.CacheLookups.WithLabelValues("memory", result))
}

// isolated runs the test in a child process: a cache written from many
// goroutines without a lock then fails the test with what happened instead
// of crashing the whole check.
func isolated(t *testing.T) bool {
	t.Helper()
	return crashtest.Isolated(t, "A map shared by goroutines needs a lock (or use c.items, which has one).")
}

func TestConcurrentMissesShareOneCallAndErrorsAreNotKept(t *testing.T) {
	if isolated(t) {
		return
	}
	memory := New(time.Minute)
	var calls atomic.Int64
	release := make(chan struct{})
	slow := func(ctx context.Context, id int32) ([]byte, error) {
		calls.Add(1)
		<-release
		return []byte("item"), nil
	}
	var wg sync.WaitGroup
	for range 100 {
		wg.Add(1)
		go func() { defer wg.Done(); _, _ = memory.Get(t.Context(), 1, slow) }()
	}
	time.Sleep(50 * time.Millisecond)
	close(release)
	wg.Wait()
	if calls.Load() != 1 {
		t.Fatalf("100 concurrent misses called the next tier %d times, want 1 (c.items.Get with a loader shares one call)", calls.Load())
	}

	boom := errors.New("redis and database down")
	failing := func(context.Context, int32) ([]byte, error) { calls.Add(1); return nil, boom }
	calls.Store(0)
	if _, err := memory.Get(t.Context(), 2, failing); !errors.Is(err, boom) {
		t.Fatalf("got %v, want the error", err)
	}
	if _, err := memory.Get(t.Context(), 2, failing); !errors.Is(err, boom) || calls.Load() != 2 {
		t.Fatalf("the error was kept: %d calls, want 2", calls.Load())
	}
}

// Under a burst, many items miss at once, each from many goroutines: every
// caller gets its own item, and the tier survives being used from all CPUs
// at once (a map shared without a lock crashes here).
func TestABurstOfManyItems(t *testing.T) {
	if isolated(t) {
		return
	}
	memory := New(time.Minute)
	const callers, ids = 400, 40
	for round := range 100 {
		start := make(chan struct{})
		var wg sync.WaitGroup
		wrong := make(chan string, callers)
		for i := range callers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				id := int32(round*ids + i%ids + 1)
				want := fmt.Sprintf("item %d", id)
				<-start
				b, err := memory.Get(t.Context(), id, func(context.Context, int32) ([]byte, error) { return []byte(want), nil })
				if err != nil || string(b) != want {
					wrong <- fmt.Sprintf("Get(%d) = %q, %v", id, b, err)
				}
			}()
		}
		close(start)
		wg.Wait()
		close(wrong)
		for w := range wrong {
			t.Fatalf("round %d: %s; want each id's own item", round, w)
		}
	}
}

type traceKey struct{}

// The next tier runs for this request: it gets the request's context (its
// deadline, its trace id), not a context of its own.
func TestNextGetsTheRequestContext(t *testing.T) {
	memory := New(time.Minute)
	ctx := context.WithValue(t.Context(), traceKey{}, "trace-42")
	var got any
	_, err := memory.Get(ctx, 3, func(ctx context.Context, id int32) ([]byte, error) {
		got = ctx.Value(traceKey{})
		return []byte("item"), nil
	})
	if err != nil || got != "trace-42" {
		t.Fatalf("next saw the request's trace id %v (err %v), want trace-42: pass ctx on to the next tier", got, err)
	}
}

// The tier holds at most about MaxItems items, whatever the traffic: a
// crawler reading the whole catalogue must not grow the process until it
// is killed. Each item's value is watched with a weak pointer: after a GC,
// only the values the cache still holds are alive.
func TestMemoryIsBounded(t *testing.T) {
	memory := New(time.Minute)
	const n = 3 * MaxItems
	alive := make([]weak.Pointer[byte], n)
	for i := range n {
		id := int32(i + 1)
		b, err := memory.Get(t.Context(), id, func(context.Context, int32) ([]byte, error) {
			v := fmt.Appendf(make([]byte, 0, 64), "item %d", id) // 64 bytes: an object of its own for the GC
			alive[i] = weak.Make(&v[0])
			return v, nil
		})
		if err != nil || string(b) != fmt.Sprintf("item %d", id) {
			t.Fatalf("Get(%d) = %q, %v; want that id's own item", id, b, err)
		}
	}
	runtime.GC()
	held := 0
	for _, p := range alive {
		if p.Value() != nil {
			held++
		}
	}
	runtime.KeepAlive(memory) // the cache itself must outlive the count
	t.Logf("after reading %d different items the tier holds %d", n, held)
	if held > 2*MaxItems {
		t.Fatalf("after reading %d different items the tier still holds %d of them, want at most about MaxItems (%d): "+
			"bound it (otter's MaximumSize) — a map grows with every item ever read", n, held, MaxItems)
	}
}

// A hot item is read all the time: its entry must still expire ttl after
// it was written, or the item would never change again.
func TestAHotItemStillExpires(t *testing.T) {
	const ttl = 100 * time.Millisecond
	memory := New(ttl)
	var loads atomic.Int64
	next := func(context.Context, int32) ([]byte, error) { loads.Add(1); return []byte("item"), nil }
	for start := time.Now(); time.Since(start) < 5*ttl; time.Sleep(ttl / 5) {
		if _, err := memory.Get(t.Context(), 5, next); err != nil {
			t.Fatal(err)
		}
	}
	if loads.Load() < 3 {
		t.Fatalf("an item read every %v for %v was loaded %d times, want one per TTL (%v) at least every other: "+
			"the TTL counts from when the entry was written (otter.ExpiryWriting), not from its last read "+
			"(ExpiryAccessing keeps a hot item forever)", ttl/5, 5*ttl, loads.Load(), ttl)
	}
}

// The property of step 5: within the burst TTL, N reads of one id cost one
// Redis GET, counted as memory hits; after it, one more. (Last: the only
// test that needs PostgreSQL and Redis.)
func TestBurstReadsCostOneRedisGET(t *testing.T) {
	store, rdb := stacktest.Store(t), stacktest.Redis(t)
	ctx := t.Context()
	const id = 777
	rdb.Del(ctx, catalog.ItemKey(id))
	viaRedis := cacheaside.Items(store, rdb, time.Minute)
	const ttl = 500 * time.Millisecond // generous: the check must not depend on the machine's speed
	memory := New(ttl)

	before, hits, misses := redisGETs(), memoryLookups("hit"), memoryLookups("miss")
	var first []byte
	for i := range 100 {
		b, err := memory.Get(ctx, id, viaRedis)
		if err != nil || len(b) == 0 {
			t.Fatalf("read %d: %d bytes, %v; want the item (a miss must go to the next tier: Redis, then the database)", i, len(b), err)
		}
		if i == 0 {
			first = b
		} else if string(b) != string(first) {
			t.Fatal("the memory tier returned a different item")
		}
	}
	if n := redisGETs() - before; n != 1 {
		t.Fatalf("100 reads within the burst TTL made %v Redis GETs, want 1", n)
	}
	if h, m := memoryLookups("hit")-hits, memoryLookups("miss")-misses; h != 99 || m != 1 {
		t.Fatalf("100 reads counted %v memory hits and %v misses, want 99 and 1: count each lookup with "+
			`metrics.CacheLookups.WithLabelValues("memory", "hit"/"miss") — the bench's memory hit ratio is read from them`, h, m)
	}
	time.Sleep(ttl + 100*time.Millisecond)
	before = redisGETs()
	if _, err := memory.Get(ctx, id, viaRedis); err != nil {
		t.Fatal(err)
	}
	if n := redisGETs() - before; n != 1 {
		t.Fatalf("the read after the burst TTL made %v Redis GETs, want 1 (entries expire ttl after they were written)", n)
	}
}

// BenchmarkGetHit is the burst tier's hot path: a hit from many goroutines.
// Run it with `go test -run '^$' -bench GetHit ./steps/05-burst-cache/`.
func BenchmarkGetHit(b *testing.B) {
	memory := New(time.Minute)
	next := func(context.Context, int32) ([]byte, error) { return []byte("item"), nil }
	if _, err := memory.Get(context.Background(), 1, next); err != nil {
		b.Fatal(err)
	}
	b.RunParallel(func(pb *testing.PB) {
		ctx := context.Background()
		for pb.Next() {
			if _, err := memory.Get(ctx, 1, next); err != nil {
				b.Fatal(err)
			}
		}
	})
}
