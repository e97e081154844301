package main

import (
	"testing"
	"time"

	"github.com/peakload/workshop/internal/catalog"
	"github.com/peakload/workshop/internal/readpath"
	"github.com/peakload/workshop/internal/stacktest"
	cacheaside "github.com/peakload/workshop/solutions/02-cache-aside"
)

// The property of step 5 with the real tiers: within the burst TTL, N reads
// of one id cost one Redis GET, counted as memory hits; after it, one more.
// (The only test that needs PostgreSQL and Redis. It sleeps through
// the TTL in real time: Redis's connections cannot live in a synctest
// bubble.)
func TestBurstReadsCostOneRedisGET(t *testing.T) {
	store, rdb := stacktest.Store(t), stacktest.Redis(t)
	ctx := t.Context()
	const id = 777
	rdb.Del(ctx, catalog.ItemKey(id))
	// Cache-aside runs step 2's answer (GetOrSet), as solved.
	viaRedis := readpath.Items(store, rdb, time.Minute, cacheaside.GetOrSet)
	const ttl = 500 * time.Millisecond // generous: the check must not depend on the machine's speed
	memory := New(ttl)

	before, was := redisGETs(), lookups()
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
	if n := redisGETs() - before; n != 1 {
		t.Fatalf("100 reads within the burst TTL made %v Redis GETs, want 1", n)
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
