package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/redis/go-redis/v9"

	"github.com/peakload/workshop/internal/given/catalog"
	"github.com/peakload/workshop/internal/given/metrics"
	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/given/redisconn"
	"github.com/peakload/workshop/internal/harness/bubble"
	"github.com/peakload/workshop/internal/harness/stacktest"
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

// ttlSlack is how much of a fresh key's TTL the round trips between its SET
// and the test's PTTL may use up (a few ms here; this much on a busy CI).
const ttlSlack = 250 * time.Millisecond

// A failed load is returned to the caller, and nothing goes to Redis.
func TestALoadErrorIsReturnedAndNotCached(t *testing.T) {
	rdb := stacktest.Redis(t)
	ctx := t.Context()
	key := "test:step2:error"
	rdb.Del(ctx, key)
	boom := errors.New("database down")
	for i := range 2 {
		_, err := GetOrSet(ctx, rdb, key, time.Minute, func(context.Context) ([]byte, error) { return nil, boom })
		if !errors.Is(err, boom) {
			t.Fatalf("read %d of a failing load returned %v, want the load's error", i+1, err)
		}
		if n, _ := rdb.Exists(ctx, key).Result(); n != 0 {
			t.Fatal("a failed load was cached: the key exists in Redis, so the next reads get an empty item until it expires")
		}
	}
}

// An id that is not in the database is a 404 on every read: never a 200
// with an empty body from a cached nothing.
func TestAnUnknownIdIsA404EveryTime(t *testing.T) {
	rdb := stacktest.Redis(t)
	const id = 100_001 // past the seeded catalogue
	rdb.Del(t.Context(), catalog.ItemKey(id))
	srv := newServer(stacktest.Store(t), rdb)
	for i := range 3 {
		if rec, _ := get(t, srv, id); rec.Code != http.StatusNotFound {
			t.Fatalf("read %d of unknown id %d: status %d with %d body bytes %.40q, want 404 "+
				"(the load said ErrNotFound: return that error, and cache nothing a later read takes for an item)",
				i+1, id, rec.Code, rec.Body.Len(), rec.Body.String())
		}
	}
}

// Redis down must not mean an outage: each read falls back to PostgreSQL
// and gets its own item, whatever was read before Redis went away.
func TestRedisDownFailsOpen(t *testing.T) {
	store := stacktest.Store(t)
	if rec, _ := get(t, newServer(store, stacktest.Redis(t)), 4242); rec.Code != 200 {
		t.Fatalf("read of 4242 with Redis up: status %d, want 200", rec.Code)
	}
	dead := redisconn.New("127.0.0.1:1") // nothing listens there
	defer dead.Close()
	srv := newServer(store, dead)
	for _, id := range []int32{4243, 4242, 4243} {
		rec, q := get(t, srv, id)
		if rec.Code != 200 || q != 1 {
			t.Fatalf("read of %d with Redis down: status %d, %v DB queries; want 200 from the database (fail open: a GET error other than redis.Nil means load)", id, rec.Code, q)
		}
		if want, err := store.ItemJSON(t.Context(), id); err != nil || !bytes.Equal(rec.Body.Bytes(), want) {
			t.Fatalf("read of %d with Redis down returned %d bytes, the database has %d (%v): serve what load returns", id, rec.Body.Len(), len(want), err)
		}
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
	ro := redis.NewClient(&redis.Options{Addr: stacktest.Endpoints(t).RedisAddr, Username: user, Password: password, MaxRetries: -1})
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

// The second read of an id is served by Redis: no query, the same bytes,
// and Redis holds exactly what load returned, under the id's key.
func TestSecondReadIsAHit(t *testing.T) {
	store, rdb := stacktest.Store(t), stacktest.Redis(t)
	srv := newServer(store, rdb)
	ctx := t.Context()
	const id = 31337
	key := catalog.ItemKey(id)
	rdb.Del(ctx, key)

	first, q1 := get(t, srv, id)
	if first.Code != 200 || q1 != 1 {
		t.Fatalf("first read: status %d, %v DB queries; want 200 and 1", first.Code, q1)
	}
	second, q2 := get(t, srv, id)
	if second.Code != 200 || q2 != 0 {
		t.Fatalf("second read: status %d, %v DB queries; want 200 and 0 (served by Redis)", second.Code, q2)
	}
	if !bytes.Equal(first.Body.Bytes(), second.Body.Bytes()) {
		t.Fatalf("the second read returned %d bytes, the first %d: the cached response differs from the loaded one", second.Body.Len(), first.Body.Len())
	}
	stored, err := rdb.Get(ctx, key).Bytes()
	if err != nil {
		t.Fatalf("after a miss, Redis has no key %q (%v): GetOrSet must SET the loaded value there, "+
			"where every instance of the API finds it (a map in the process is not shared and survives no restart)", key, err)
	}
	if !bytes.Equal(stored, first.Body.Bytes()) {
		t.Fatalf("Redis holds %d bytes under %q, the response has %d: store exactly what load returned", len(stored), key, len(first.Body.Bytes()))
	}
}

// The key lives the TTL main.go gives — not more, not less — and a hit does
// not extend it.
func TestTheKeyLivesTheTTLAndAHitDoesNotExtendIt(t *testing.T) {
	store, rdb := stacktest.Store(t), stacktest.Redis(t)
	srv := newServer(store, rdb)
	ctx := t.Context()
	const id = 31338
	key, ttl := catalog.ItemKey(id), ttl()
	rdb.Del(ctx, key)
	if rec, _ := get(t, srv, id); rec.Code != 200 {
		t.Fatalf("first read: status %d, want 200", rec.Code)
	}
	pttl1 := rdb.PTTL(ctx, key).Val()
	switch {
	case pttl1 == -2*time.Nanosecond:
		t.Fatalf("after a miss, Redis has no key %q: SET the loaded value there", key)
	case pttl1 < 0:
		t.Fatalf("the key %q has no TTL in Redis: pass ttl to SET, or the item is never reloaded and its data never changes", key)
	case pttl1 > ttl && pttl1 <= ttl.Truncate(time.Second)+time.Second:
		t.Fatalf("the key %q lives %v, want at most %v. SETEX and EXPIRE (go-redis SetEx, Expire) count whole seconds, "+
			"so the workshop's scaled TTL (%v for the article's 30 s) became %v; "+
			"rdb.Set(ctx, key, value, ttl) sends PX for a sub-second TTL and keeps it exact", key, pttl1, ttl, ttl, pttl1.Round(time.Second))
	case pttl1 > ttl:
		t.Fatalf("the key %q lives %v, want at most %v: use the ttl GetOrSet is given", key, pttl1, ttl)
	case pttl1 < ttl-ttlSlack:
		t.Fatalf("the key %q lives %v right after the miss that set it, want the %v GetOrSet is given (%v of slack for the round trips): "+
			"a shorter TTL reloads the item that much more often", key, pttl1, ttl, ttlSlack)
	}
	// A real 20 ms must pass for Redis's TTL to go down (Redis keeps its own
	// clock: this is a service test, synctest cannot fake it).
	time.Sleep(20 * time.Millisecond)
	for range 3 {
		get(t, srv, id)
	}
	if pttl2 := rdb.PTTL(ctx, key).Val(); pttl2 > pttl1-10*time.Millisecond {
		t.Fatalf("a hit extended the key's TTL (%v after the first read, still %v 20 ms and 3 hits later): a hot item read "+
			"every few ms would then never expire, and its data would never change; only a miss sets the TTL", pttl1, pttl2)
	}
}

// After the key expires, the next read loads once and caches again with a
// TTL; the read after it is a hit — after the first expiry and the next.
func TestAnExpiredKeyIsLoadedAgainOnce(t *testing.T) {
	rdb := stacktest.Redis(t)
	ctx := t.Context()
	key := "test:step2:expiry"
	rdb.Del(ctx, key)
	// A minute, whole (SETEX answers keep it exact): no read below can
	// outlive it however slow the machine; each expiry is brought forward
	// with PEXPIRE instead of waited for.
	const ttl = time.Minute
	var loads atomic.Int32
	load := func(context.Context) ([]byte, error) { return fmt.Appendf(nil, "v%d", loads.Add(1)), nil }
	read := func(when string, wantLoads int32) {
		t.Helper()
		got, err := GetOrSet(ctx, rdb, key, ttl, load)
		if n := loads.Load(); err != nil || n != wantLoads || string(got) != fmt.Sprintf("v%d", wantLoads) {
			t.Fatalf("%s: %q, %v, after %d loads in all; want %q and %d loads", when, got, err, n, fmt.Sprintf("v%d", wantLoads), wantLoads)
		}
	}
	read("first read", 1)
	read("second read", 1)
	// Redis expires keys on its own clock, so only a real sleep past the
	// TTL shows the expiry (a service test: synctest cannot fake it). A
	// sleep that lasts longer on a loaded machine changes nothing.
	rdb.PExpire(ctx, key, 30*time.Millisecond)
	time.Sleep(80 * time.Millisecond)
	read("read after the TTL", 2)
	if pttl := rdb.PTTL(ctx, key).Val(); pttl <= 0 || pttl > ttl {
		t.Fatalf("after the reload the key's TTL is %v, want (0, %v]: every SET needs the ttl", pttl, ttl)
	}
	read("read after the reload", 2)
	// The next expiry, brought forward the same way.
	rdb.PExpire(ctx, key, 30*time.Millisecond)
	time.Sleep(80 * time.Millisecond)
	read("read after the second expiry", 3)
	read("read after the second reload", 3)
}

// payload is what the test's load returns for key i: its own bytes, of its
// own length, binary included.
func payload(i int) []byte {
	b := fmt.Appendf(nil, "{\"id\":%d,\"pad\":\"", i)
	for j := range 64 + 37*i {
		b = append(b, byte(i*31+j*7))
	}
	return append(b, '"', '}', '\n') // as json.Encoder ends it
}

// Reads of distinct ids at the same time: each gets its own bytes, and
// Redis holds each one's bytes under its own key, exactly as load returned
// them.
func TestDistinctIdsGetTheirOwnBytes(t *testing.T) {
	rdb := stacktest.Redis(t)
	ctx := t.Context()
	const ids, reads = 16, 4
	key := func(i int) string { return fmt.Sprintf("test:step2:distinct:%d", i) }
	for i := range ids {
		rdb.Del(ctx, key(i))
	}
	var loads atomic.Int32
	got := make([][][]byte, ids)
	errs := make(chan string, ids*reads)
	var wg sync.WaitGroup
	for i := range ids {
		got[i] = make([][]byte, reads)
		wg.Go(func() {
			defer func() {
				if p := recover(); p != nil {
					errs <- fmt.Sprintf("GetOrSet panicked: %v", p)
				}
			}()
			for r := range reads {
				v, err := GetOrSet(ctx, rdb, key(i), time.Minute, func(context.Context) ([]byte, error) {
					loads.Add(1)
					return payload(i), nil
				})
				if err != nil {
					errs <- fmt.Sprintf("read %d of %s: %v", r+1, key(i), err)
				}
				got[i][r] = v // kept: compared once every read is done
			}
		})
	}
	if !waitFor(&wg, 3*watchdog) {
		t.Fatalf("timed out: %d goroutines reading %d distinct keys %d times each were not done after %v of real time "+
			"(the machine may be overloaded, or a read waits for something)\n%s", ids, ids, reads, 3*watchdog, strings.Join(bubble.Goroutines(), "\n"))
	}
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
	wrong := 0
	for i := range ids {
		for r, v := range got[i] {
			if !bytes.Equal(v, payload(i)) {
				if wrong++; wrong <= 3 {
					t.Errorf("read %d of %s returned %d bytes %.24q…, its load returned %d bytes %.24q…",
						r+1, key(i), len(v), v, len(payload(i)), payload(i))
				}
			}
		}
		if stored, err := rdb.Get(ctx, key(i)).Bytes(); !bytes.Equal(stored, payload(i)) {
			t.Errorf("Redis holds %d bytes under %s (%v), its load returned %d: store exactly what load returned", len(stored), key(i), err, len(payload(i)))
		}
	}
	if wrong > 0 {
		t.Fatalf("%d of %d reads of %d distinct keys read at the same time got bytes other than their own", wrong, ids*reads, ids)
	}
	if n := loads.Load(); n < ids || n > ids*reads {
		t.Fatalf("%d loads for %d keys read %d times each", n, ids, reads)
	}
}

// A slow load for one id does not hold up the miss of another.
func TestASlowLoadDoesNotBlockOtherIds(t *testing.T) {
	rdb := stacktest.Redis(t)
	ctx := t.Context()
	slow, fast := "test:step2:slow", "test:step2:fast"
	rdb.Del(ctx, slow, fast)
	started, release := make(chan struct{}), make(chan struct{})
	slowDone := make(chan string, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				slowDone <- fmt.Sprintf("panicked: %v", p)
			}
		}()
		v, err := GetOrSet(ctx, rdb, slow, time.Minute, func(context.Context) ([]byte, error) {
			close(started)
			<-release
			return []byte("slow"), nil
		})
		slowDone <- fmt.Sprintf("%q, %v", v, err)
	}()
	let := sync.OnceFunc(func() { close(release) })
	defer let()
	select {
	case <-started:
	case <-time.After(watchdog):
		t.Fatalf("timed out: GetOrSet on a missing key %s did not call load within %v of real time "+
			"(the machine may be overloaded; if not, the load is never called)\n%s", slow, watchdog, strings.Join(bubble.Goroutines(), "\n"))
	}
	fastDone := make(chan string, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				fastDone <- fmt.Sprintf("panicked: %v", p)
			}
		}()
		v, err := GetOrSet(ctx, rdb, fast, time.Minute, func(context.Context) ([]byte, error) { return []byte("fast"), nil })
		fastDone <- fmt.Sprintf("%q, %v", v, err)
	}()
	select {
	case r := <-fastDone:
		if r != `"fast", <nil>` {
			t.Fatalf("the read of %s while %s loads returned %s, want \"fast\", <nil>", fast, slow, r)
		}
	case <-time.After(watchdog):
		t.Fatalf("timed out: the read of %s waited %v of real time and more while the load of another key, %s, was held: the machine may be "+
			"overloaded, or a miss holds what other ids need (a lock around the whole GetOrSet?)\n%s", fast, watchdog, slow, strings.Join(bubble.Goroutines(), "\n"))
	}
	let()
	select {
	case r := <-slowDone:
		if r != `"slow", <nil>` {
			t.Fatalf("the slow read of %s returned %s, want \"slow\", <nil>", slow, r)
		}
	case <-time.After(watchdog):
		t.Fatalf("timed out: the read of %s did not return within %v of real time of its load returning "+
			"(the machine may be overloaded, or it waits for something)\n%s", slow, watchdog, strings.Join(bubble.Goroutines(), "\n"))
	}
}

// watchdog bounds, in real time, a wait for something a right answer does
// at once: far past what a loaded machine needs, and no verdict when it
// ends — the failure says it timed out and what each goroutine was doing.
const watchdog = 20 * time.Second

// waitFor waits for wg at most d.
func waitFor(wg *sync.WaitGroup, d time.Duration) bool {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
		return true
	case <-time.After(d):
		return false
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
