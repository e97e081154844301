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

	"github.com/peakload/workshop/internal/catalog"
	"github.com/peakload/workshop/internal/metrics"
	"github.com/peakload/workshop/internal/redisconn"
	"github.com/peakload/workshop/internal/stacktest"
	"github.com/peakload/workshop/k6"
)

func get(t *testing.T, h http.Handler, id int32) (*httptest.ResponseRecorder, float64) {
	t.Helper()
	before := testutil.ToFloat64(metrics.DBQueries)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, fmt.Sprintf("/cached/items/%d", id), nil))
	return rec, testutil.ToFloat64(metrics.DBQueries) - before
}

// The property of step 2: a hit makes no database query; an expired key
// is loaded again, once.
func TestSecondReadIsAHitAndExpiryReloadsOnce(t *testing.T) {
	store, rdb := stacktest.Store(t), stacktest.Redis(t)
	srv := newServer(store, rdb)
	const id = 31337
	rdb.Del(context.Background(), catalog.ItemKey(id))

	first, q1 := get(t, srv, id)
	if first.Code != 200 || q1 != 1 {
		t.Fatalf("first read: status %d, %v DB queries; want 200 and 1", first.Code, q1)
	}
	second, q2 := get(t, srv, id)
	if second.Code != 200 || q2 != 0 {
		t.Fatalf("second read: status %d, %v DB queries; want 200 and 0 (served by Redis)", second.Code, q2)
	}
	if !bytes.Equal(first.Body.Bytes(), second.Body.Bytes()) {
		t.Fatal("the cached response differs from the loaded one")
	}
	p := k6.Load()
	time.Sleep(p.Scaled(p.Clock.RedisTTLS) + 100*time.Millisecond) // past the TTL
	if _, q := get(t, srv, id); q != 1 {
		t.Fatalf("read after the TTL: %v DB queries, want 1 (reload once)", q)
	}
	if _, q := get(t, srv, id); q != 0 {
		t.Fatalf("read after the reload: %v DB queries, want 0", q)
	}
}

func TestLoadErrorsAreNotCached(t *testing.T) {
	rdb := stacktest.Redis(t)
	ctx := context.Background()
	key := "test:step2:error"
	rdb.Del(ctx, key)
	boom := errors.New("database down")
	_, err := GetOrSet(ctx, rdb, key, time.Minute, func(context.Context) ([]byte, error) { return nil, boom })
	if !errors.Is(err, boom) {
		t.Fatalf("got %v, want the load error", err)
	}
	if n, _ := rdb.Exists(ctx, key).Result(); n != 0 {
		t.Fatal("a failed load was cached")
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
		t.Fatalf("with Redis down: status %d, %v DB queries; want 200 from the database", rec.Code, q)
	}
}
