package bulk

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/given/events"
	"github.com/peakload/workshop/internal/given/metrics"
	"github.com/peakload/workshop/internal/given/tracking"
	"github.com/peakload/workshop/internal/given/writes"
	"github.com/peakload/workshop/internal/harness/stacktest/mongotest"
)

func doc(t testing.TB) bson.D {
	e := tracking.Event{Name: "click", Data: json.RawMessage(`{"button":"buy"}`), Timestamp: 1632404556}
	d, err := events.Document(e, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// 10k events from 50 goroutines → all persisted, in ~events/size InsertMany calls.
func TestTenThousandEventsArePersistedInBatches(t *testing.T) {
	store := mongotest.Store(t)
	ctx := context.Background()
	before, err := store.Count(ctx) // the collection outlives the test: compare counts
	if err != nil {
		t.Fatal(err)
	}
	inserts := testutil.ToFloat64(metrics.MongoCommands.WithLabelValues("insert"))
	b := writes.Batch("bulk", 1000, 20_000, time.Second, store.InsertMany, Run)
	var wg sync.WaitGroup
	var accepted atomic.Int64
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				if err := b.Add(doc(t)); err == nil {
					accepted.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	if err := b.Close(ctx); err != nil {
		t.Fatal(err)
	}
	after, err := store.Count(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n := after - before; n != accepted.Load() || n != 10_000 {
		t.Fatalf("persisted %d, accepted %d, want 10000 each", after-before, accepted.Load())
	}
	if calls := testutil.ToFloat64(metrics.MongoCommands.WithLabelValues("insert")) - inserts; calls < 10 || calls > 12 {
		t.Fatalf("%v InsertMany round trips for 10000 events, want ~10 (size 1000)", calls)
	}
}

// A failing database: the batch is retried until it is written, nothing is
// dropped; a full buffer refuses new events instead of growing.
func TestRetriesAndBackpressure(t *testing.T) {
	var fails atomic.Int64
	fails.Store(3)
	var written atomic.Int64
	write := func(ctx context.Context, docs []bson.D) ([]bson.D, error) {
		if fails.Add(-1) >= 0 {
			return docs, errors.New("mongo: connection refused")
		}
		written.Add(int64(len(docs)))
		return nil, nil
	}
	b := writes.Batch("bulk", 10, 25, 20*time.Millisecond, write, Run)
	full := 0
	for range 100 {
		if err := b.Add(doc(t)); errors.Is(err, writes.ErrFull) {
			full++
		}
	}
	if full == 0 {
		t.Fatal("a stuck database never filled the 25-event buffer")
	}
	if err := b.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := written.Load(); got != int64(100-full) {
		t.Fatalf("written %d, accepted %d", got, 100-full)
	}
	if err := b.Add(doc(t)); !errors.Is(err, writes.ErrClosed) {
		t.Fatalf("Add after Close: %v, want writes.ErrClosed", err)
	}
}
