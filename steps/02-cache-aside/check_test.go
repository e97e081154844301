package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/redis/go-redis/v9"

	"github.com/peakload/workshop/internal/catalog"
	"github.com/peakload/workshop/internal/metrics"
	"github.com/peakload/workshop/internal/params"
	"github.com/peakload/workshop/internal/redisconn"
	"github.com/peakload/workshop/internal/stacktest"
)

// get serves one read of the cached route and returns the DB queries it cost.
func get(t *testing.T, h http.Handler, id int32) (*httptest.ResponseRecorder, float64) {
	t.Helper()
	before := testutil.ToFloat64(metrics.DBQueries)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, fmt.Sprintf("/cached/items/%d", id), nil))
	return rec, testutil.ToFloat64(metrics.DBQueries) - before
}

// ttl is the TTL main.go gives GetOrSet: the article's 30 s on the
// workshop's clock of hit ratios (3 s by default).
func ttl() time.Duration {
	p := params.Load()
	return p.ForHitRatio(p.Clock.RedisTTLS)
}

func TestLoadErrorsAreNotCached(t *testing.T) {
	rdb := stacktest.Redis(t)
	ctx := t.Context()
	key := "test:step2:error"
	rdb.Del(ctx, key)
	boom := errors.New("database down")
	_, err := GetOrSet(ctx, rdb, key, time.Minute, func(context.Context) ([]byte, error) { return nil, boom })
	if !errors.Is(err, boom) {
		t.Fatalf("a failed load returned %v, want the load's error", err)
	}
	if n, _ := rdb.Exists(ctx, key).Result(); n != 0 {
		t.Fatal("a failed load was cached: the key exists in Redis, so the next reads get an empty item until it expires")
	}
	srv := newServer(stacktest.Store(t), rdb)
	if rec, _ := get(t, srv, 100_001); rec.Code != http.StatusNotFound {
		t.Fatalf("unknown id: %d, want 404", rec.Code)
	}
}

// Redis down must not mean an outage: the read falls back to PostgreSQL.
func TestRedisDownFailsOpen(t *testing.T) {
	dead := redisconn.New("127.0.0.1:1") // nothing listens there
	defer dead.Close()
	srv := newServer(stacktest.Store(t), dead)
	rec, q := get(t, srv, 4242)
	if rec.Code != 200 || q != 1 {
		t.Fatalf("with Redis down: status %d, %v DB queries; want 200 from the database (fail open: a GET error other than redis.Nil means load)", rec.Code, q)
	}
}

// A SET that fails (Redis full, read-only, a timeout) costs a future miss,
// not this response. The client here may read but not write (a Redis ACL
// user), so every SET gets NOPERM from the real server.
func TestAFailedSETStillServesTheRead(t *testing.T) {
	rdb := stacktest.Redis(t)
	ctx := t.Context()
	const user, password = "peakload-readonly", "peakload-readonly"
	if err := rdb.Do(ctx, "ACL", "SETUSER", user, "reset", "on", ">"+password, "~*", "+@read", "+@connection").Err(); err != nil {
		t.Fatalf("creating a read-only Redis user: %v", err)
	}
	ro := redis.NewClient(&redis.Options{Addr: stacktest.Endpoints().RedisAddr, Username: user, Password: password, MaxRetries: -1})
	defer ro.Close()
	if err := ro.Set(ctx, "test:step2:readonly", "x", time.Second).Err(); err == nil {
		t.Fatal("the read-only Redis user could SET: the test cannot make SET fail")
	}
	const id = 4343
	rdb.Del(ctx, catalog.ItemKey(id))
	if rec, q := get(t, newServer(stacktest.Store(t), ro), id); rec.Code != 200 || q != 1 {
		t.Fatalf("when SET fails: status %d, %v DB queries; want 200 with the loaded item (log the SET error, return the value)", rec.Code, q)
	}
}

// The property of step 2: the item is cached in Redis — shared by every
// instance of the API — with the TTL; a hit makes no database query and
// does not extend the TTL; an expired key is loaded again, once.
func TestSecondReadIsAHitAndExpiryReloadsOnce(t *testing.T) {
	store, rdb := stacktest.Store(t), stacktest.Redis(t)
	srv := newServer(store, rdb)
	ctx := t.Context()
	const id = 31337
	key, ttl := catalog.ItemKey(id), ttl()
	rdb.Del(ctx, key)

	first, q1 := get(t, srv, id)
	if first.Code != 200 || q1 != 1 {
		t.Fatalf("first read: status %d, %v DB queries; want 200 and 1", first.Code, q1)
	}
	pttl1 := rdb.PTTL(ctx, key).Val()
	time.Sleep(20 * time.Millisecond)
	second, q2 := get(t, srv, id)
	if second.Code != 200 || q2 != 0 {
		t.Fatalf("second read: status %d, %v DB queries; want 200 and 0 (served by Redis)", second.Code, q2)
	}
	if !bytes.Equal(first.Body.Bytes(), second.Body.Bytes()) {
		t.Fatal("the cached response differs from the loaded one")
	}
	stored, err := rdb.Get(ctx, key).Bytes()
	if err != nil {
		t.Fatalf("after a miss, Redis has no key %q (%v): GetOrSet must SET the loaded value there, "+
			"where every instance of the API finds it (a map in the process is not shared and survives no restart)", key, err)
	}
	if !bytes.Equal(stored, first.Body.Bytes()) {
		t.Fatalf("Redis holds %d bytes under %q, the response has %d: store exactly what load returned", len(stored), key, len(first.Body.Bytes()))
	}
	switch {
	case pttl1 < 0:
		t.Fatalf("the key %q has no TTL in Redis: pass ttl to SET, or the item is never reloaded and its data never changes", key)
	case pttl1 > ttl && pttl1 <= ttl.Truncate(time.Second)+time.Second:
		t.Fatalf("the key %q lives %v, want at most %v. SETEX and EXPIRE (go-redis SetEx, Expire) count whole seconds, "+
			"so the workshop's scaled TTL (%v for the article's 30 s) became %v; "+
			"rdb.Set(ctx, key, value, ttl) sends PX for a sub-second TTL and keeps it exact", key, pttl1, ttl, ttl, pttl1.Round(time.Second))
	case pttl1 > ttl:
		t.Fatalf("the key %q lives %v, want at most %v: use the ttl GetOrSet is given", key, pttl1, ttl)
	}

	// 20 ms went by between the two reads: the TTL must have gone down.
	if pttl2 := rdb.PTTL(ctx, key).Val(); pttl2 > pttl1-10*time.Millisecond {
		t.Fatalf("a hit extended the key's TTL (%v after the first read, still %v 20 ms later): a hot item read "+
			"every few ms would then never expire, and its data would never change; only a miss sets the TTL", pttl1, pttl2)
	}

	time.Sleep(ttl + 100*time.Millisecond) // past the TTL
	if _, q := get(t, srv, id); q != 1 {
		t.Fatalf("read after the TTL: %v DB queries, want 1 (reload once)", q)
	}
	if _, q := get(t, srv, id); q != 0 {
		t.Fatalf("read after the reload: %v DB queries, want 0", q)
	}
}

// BenchmarkGetOrSetHit measures a hit: one Redis round trip, no query.
// Run it with `go test -run '^$' -bench . ./steps/02-cache-aside/` (services up).
func BenchmarkGetOrSetHit(b *testing.B) {
	rdb := stacktest.Redis(b)
	ctx := b.Context()
	key := "test:step2:bench"
	value := bytes.Repeat([]byte("x"), 1400) // about an item's size
	if err := rdb.Set(ctx, key, value, time.Minute).Err(); err != nil {
		b.Fatal(err)
	}
	load := func(context.Context) ([]byte, error) { return value, nil }
	for b.Loop() {
		if _, err := GetOrSet(ctx, rdb, key, time.Minute, load); err != nil {
			b.Fatal(err)
		}
	}
}
