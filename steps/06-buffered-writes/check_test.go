package main

import (
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
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/metrics"
	"github.com/peakload/workshop/internal/stacktest"
)

const event = `{"event_name":"click","data":{"button":"buy"},"timestamp":1632404556}`

func post(h http.Handler, path, body string) int {
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code
}

// The property of step 6: 10k accepted events are 10k persisted events,
// written in about events / batch size round trips.
func TestBulkPersistsEverythingInFewRoundTrips(t *testing.T) {
	store := stacktest.Mongo(t)
	ctx := context.Background()
	before, err := store.Count(ctx) // the collection outlives the test: compare counts
	if err != nil {
		t.Fatal(err)
	}
	srv, flush := newServer(store)
	inserts := testutil.ToFloat64(metrics.MongoCommands.WithLabelValues("insert"))
	var accepted atomic.Int64
	var wg sync.WaitGroup
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				code := post(srv, "/events/bulk", event)
				for code == http.StatusServiceUnavailable { // a full buffer: come back later, as clients do
					time.Sleep(20 * time.Millisecond)
					code = post(srv, "/events/bulk", event)
				}
				if code == http.StatusAccepted {
					accepted.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	sctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := flush(sctx); err != nil { // what graceful shutdown does
		t.Fatal(err)
	}
	after, err := store.Count(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n := after - before; n != accepted.Load() || n != 10_000 {
		t.Fatalf("persisted %d, accepted %d: want 10000 each", n, accepted.Load())
	}
	if calls := testutil.ToFloat64(metrics.MongoCommands.WithLabelValues("insert")) - inserts; calls > 10_000/BatchSize+3 {
		t.Fatalf("%v insert round trips for 10000 events, want about %d (one InsertMany per %d)", calls, 10_000/BatchSize, BatchSize)
	}
}

// One event alone is written within the flush interval, not when the
// batch is full.
func TestAnEventAloneIsFlushedByTheInterval(t *testing.T) {
	var written atomic.Int64
	b := New(1000, 100, 50*time.Millisecond, func(_ context.Context, docs []bson.D) ([]bson.D, error) {
		written.Add(int64(len(docs)))
		return nil, nil
	})
	defer b.Close(context.Background())
	_ = b.Add(bson.D{{Key: "n", Value: 1}})
	deadline := time.Now().Add(time.Second)
	for written.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if written.Load() != 1 {
		t.Fatal("a lone event was not written within the flush interval")
	}
}

// A database that fails and comes back: everything accepted is written.
func TestFailuresAreRetried(t *testing.T) {
	var fails, written atomic.Int64
	fails.Store(3)
	b := New(10, 1000, 20*time.Millisecond, func(_ context.Context, docs []bson.D) ([]bson.D, error) {
		if fails.Add(-1) >= 0 {
			return docs, errors.New("connection refused")
		}
		written.Add(int64(len(docs)))
		return nil, nil
	})
	for i := range 100 {
		if err := b.Add(bson.D{{Key: "n", Value: i}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if written.Load() != 100 {
		t.Fatalf("written %d of 100", written.Load())
	}
}

// Bad input is a 4xx naming the problem, and nothing is stored.
func TestBadEventsAreRejected(t *testing.T) {
	store := stacktest.Mongo(t)
	srv, flush := newServer(store)
	defer flush(context.Background())
	for body, code := range map[string]int{
		`{"event_name":"click","data":{"button":"buy"}}`:                       400,
		`{"event_name":"click","data":"x","timestamp":1632404556}`:             400,
		`{"event_name":"click","data":{},"timestamp":1632404556,"admin":true}`: 400,
		`{"event_name":`: 400,
		fmt.Sprintf(`{"event_name":"click","data":{"x":"%s"},"timestamp":1632404556}`, strings.Repeat("a", 70<<10)): 413,
	} {
		for _, route := range []string{"/events/sync", "/events/async", "/events/group", "/events/bulk"} {
			if got := post(srv, route, body); got != code {
				t.Errorf("POST %s %.50s: %d, want %d", route, body, got, code)
			}
		}
	}
}
