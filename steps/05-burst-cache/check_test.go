package main

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/peakload/workshop/internal/catalog"
	"github.com/peakload/workshop/internal/metrics"
	"github.com/peakload/workshop/internal/stacktest"
	cacheaside "github.com/peakload/workshop/solutions/02-cache-aside"
)

func redisGETs() float64 { return testutil.ToFloat64(metrics.RedisCommands.WithLabelValues("get")) }

// The property of step 5: within the burst TTL, N reads of one id cost one
// Redis GET; after it, one more.
func TestBurstReadsCostOneRedisGET(t *testing.T) {
	store, rdb := stacktest.Store(t), stacktest.Redis(t)
	ctx := context.Background()
	const id = 777
	rdb.Del(ctx, catalog.ItemKey(id))
	viaRedis := cacheaside.Items(store, rdb, time.Minute)
	const ttl = 500 * time.Millisecond // generous: the check must not depend on the machine's speed
	memory := New(ttl)

	before := redisGETs()
	var first []byte
	for i := range 100 {
		b, err := memory.Get(ctx, id, viaRedis)
		if err != nil || len(b) == 0 {
			t.Fatalf("read %d: %v", i, err)
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
	time.Sleep(ttl + 100*time.Millisecond)
	before = redisGETs()
	if _, err := memory.Get(ctx, id, viaRedis); err != nil {
		t.Fatal(err)
	}
	if n := redisGETs() - before; n != 1 {
		t.Fatalf("the read after the burst TTL made %v Redis GETs, want 1", n)
	}
}

func TestConcurrentMissesShareOneCallAndErrorsAreNotKept(t *testing.T) {
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
		go func() { defer wg.Done(); _, _ = memory.Get(context.Background(), 1, slow) }()
	}
	time.Sleep(50 * time.Millisecond)
	close(release)
	wg.Wait()
	if calls.Load() != 1 {
		t.Fatalf("100 concurrent misses called the next tier %d times, want 1", calls.Load())
	}

	boom := errors.New("redis and database down")
	failing := func(context.Context, int32) ([]byte, error) { calls.Add(1); return nil, boom }
	calls.Store(0)
	if _, err := memory.Get(context.Background(), 2, failing); !errors.Is(err, boom) {
		t.Fatalf("got %v, want the error", err)
	}
	if _, err := memory.Get(context.Background(), 2, failing); !errors.Is(err, boom) || calls.Load() != 2 {
		t.Fatalf("the error was kept: %d calls, want 2", calls.Load())
	}
}
