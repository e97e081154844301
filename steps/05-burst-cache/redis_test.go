package main

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/peakload/workshop/internal/given/catalog"
	"github.com/peakload/workshop/internal/given/metrics"
	"github.com/peakload/workshop/internal/given/readpath"
	"github.com/peakload/workshop/internal/given/redisconn"
	"github.com/peakload/workshop/internal/harness/bubble"
	"github.com/peakload/workshop/internal/harness/redisfault"
	"github.com/peakload/workshop/internal/harness/stacktest"
	cacheaside "github.com/peakload/workshop/solutions/02-cache-aside"
)

// The property of step 5 with the real tiers: within the burst TTL, N reads
// of one id cost one Redis GET, counted as memory hits; after it, one more.
// (It sleeps through the TTL in real time: Redis's connections cannot live
// in a synctest bubble. The burst is judged only if it fitted in the TTL,
// measured: a machine that stalled longer than that is no verdict.)
func TestBurstReadsCostOneRedisGET(t *testing.T) {
	store, rdb := stacktest.Store(t), stacktest.Redis(t)
	ctx := t.Context()
	const id = 777
	rdb.Del(ctx, catalog.ItemKey(id))
	// Cache-aside runs step 2's answer (GetOrSet), as solved.
	viaRedis := readpath.Items(store, rdb, time.Minute, cacheaside.GetOrSet)
	const ttl = time.Second // 100 reads take microseconds; a stall past it is measured below
	memory := New(ttl)

	before, was, start := redisGETs(), lookups(), time.Now()
	var first []byte
	for i := range 100 {
		b, err := get(ctx, memory, id, viaRedis)
		if err != nil || len(b) == 0 {
			t.Fatalf("read %d: %d bytes, %v; want the item (a miss must go to the next tier: Redis, then the database)", i, len(b), err)
		}
		if i == 0 {
			first = b
		} else if string(b) != string(first) {
			t.Fatal("the memory tier returned a different item")
		}
	}
	if n, took := redisGETs()-before, time.Since(start); n != 1 && took >= ttl {
		bubble.Stalled(t, ttl, "100 reads fit in the burst TTL (they took "+took.Round(time.Millisecond).String()+")")
	} else if n != 1 {
		t.Fatalf("100 reads within the burst TTL (%v, they took %v) made %v Redis GETs, want 1", ttl, took.Round(time.Millisecond), n)
	}
	if c := lookups().since(was); c != (counts{99, 1}) {
		t.Fatalf("100 reads counted %v memory hits and %v misses, want 99 and 1: count each lookup with "+
			`metrics.CacheLookups.WithLabelValues("memory", "hit"/"miss") — the bench's memory hit ratio is read from them`, c.hits, c.misses)
	}
	time.Sleep(ttl + 100*time.Millisecond)
	before = redisGETs()
	if _, err := get(ctx, memory, id, viaRedis); err != nil {
		t.Fatal(err)
	}
	if n := redisGETs() - before; n != 1 {
		t.Fatalf("the read after the burst TTL made %v Redis GETs, want 1 (entries expire ttl after they were written)", n)
	}
}

// With the real tiers behind a Redis that stalls (a proxy of the test's own
// in front of the real one): a request already past its deadline sends
// Redis nothing, and a request cancelled while its GET stalls gets its
// context's error — its GET is given up, nothing more is sent to Redis and
// PostgreSQL is not asked for a client that has gone. Observed at the
// proxy and the drivers' counters; the waits are bounds, not verdicts.
func TestAnEndedRequestLeavesAStalledRedis(t *testing.T) {
	store := stacktest.Store(t)
	stacktest.Redis(t)
	p := redisfault.Start(t, stacktest.Endpoints(t).RedisAddr)
	p.On("get", redisfault.Stall)
	rdb := redisconn.New(p.Addr())
	defer rdb.Close()
	viaRedis := readpath.Items(store, rdb, time.Minute, cacheaside.GetOrSet)
	memory := New(time.Minute)

	expired, cancel := context.WithDeadline(t.Context(), time.Now().Add(-time.Second))
	defer cancel()
	queries := testutil.ToFloat64(metrics.DBQueries)
	if b, err := get(expired, memory, 778, viaRedis); !errors.Is(err, context.DeadlineExceeded) || p.Received("get") != 0 {
		t.Fatalf("a request already past its deadline: Get returned %.40q, %v, after %d GETs reached Redis; "+
			"want context.DeadlineExceeded and none: pass the request's ctx to next", b, err, p.Received("get"))
	}

	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan result, 1)
	go func() {
		b, err := get(ctx, memory, 779, viaRedis)
		done <- result{b, err}
	}()
	if _, ok := waitFor(p.Stalled()); !ok {
		bubble.Stalled(t, patience, "a GET reach Redis from a read of a cold id")
	}
	cancel()
	r, ok := waitFor(done)
	switch {
	case !ok:
		bubble.Stalled(t, patience, "Get return once its request was cancelled (the client's own timeouts are 100–200 ms)")
	case !errors.Is(r.err, context.Canceled):
		t.Fatalf("a request cancelled while its GET stalled: Get returned %.40q, %v; want context.Canceled — "+
			"next went on for a client that had gone: pass the request's ctx to next, its cancellation with it", r.b, r.err)
	case p.Received("get") != 1:
		t.Fatalf("a request cancelled while its GET stalled sent %d GETs to Redis, want that 1: once the request has ended nothing more is sent", p.Received("get"))
	}
	if q := testutil.ToFloat64(metrics.DBQueries) - queries; q != 0 {
		t.Fatalf("two requests that had ended made %v PostgreSQL queries, want 0: the request's ctx must reach the database too", q)
	}
	if _, ok := waitFor(p.Abandoned()); !ok {
		bubble.Stalled(t, patience, "the stalled GET's connection closed once its request was cancelled (the call given up)")
	}
}
