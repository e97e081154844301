package main

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

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

// The property of step 4: 1000 concurrent misses for one id → 1 DB query.
func TestThousandConcurrentMissesMakeOneQuery(t *testing.T) {
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
			results[i], errs[i] = group.Load(context.Background(), "item:4242", load)
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

// A failed load reaches every waiter and is not kept: the next call loads again.
func TestErrorsReachEveryWaiterAndAreNotCached(t *testing.T) {
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
			if _, err := group.Load(context.Background(), "k", failing); errors.Is(err, boom) {
				failed.Add(1)
			}
		}()
	}
	wg.Wait()
	if failed.Load() != n || loads.Load() != 1 {
		t.Fatalf("%d of %d callers got the error from %d loads; want all from 1", failed.Load(), n, loads.Load())
	}
	ok := func(context.Context) ([]byte, error) { loads.Add(1); return []byte("fresh"), nil }
	if b, err := group.Load(context.Background(), "k", ok); err != nil || string(b) != "fresh" {
		t.Fatalf("the load after a failure: %q, %v; want a new load, not the cached error", b, err)
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
	first, cancel := context.WithCancel(context.Background())
	firstDone := make(chan error, 1)
	go func() { _, err := group.Load(first, "k", slow); firstDone <- err }()
	time.Sleep(20 * time.Millisecond) // the first caller owns the load now
	secondDone := make(chan error, 1)
	var second []byte
	go func() { b, err := group.Load(context.Background(), "k", slow); second = b; secondDone <- err }()
	time.Sleep(20 * time.Millisecond)
	cancel()
	select {
	case err := <-firstDone:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("the caller that gave up got %v, want context.Canceled", err)
		}
	case <-time.After(100 * time.Millisecond):
		t.Fatal("the caller that gave up still waits for the load")
	}
	if err := <-secondDone; err != nil || string(second) != "item" {
		t.Fatalf("the other caller got %q, %v; want the item", second, err)
	}
}

// A panicking load is an error for every caller, not a crashed server.
func TestPanicIsAnError(t *testing.T) {
	var group Group
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("the loader's panic escaped Load: %v", r)
		}
	}()
	_, err := group.Load(context.Background(), "k", func(context.Context) ([]byte, error) { panic("bug in the loader") })
	if err == nil {
		t.Fatal("a panicking load returned no error")
	}
}
