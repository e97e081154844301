package main

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/metrics"
	"github.com/peakload/workshop/internal/stacktest"
	"github.com/peakload/workshop/internal/writes"
)

const event = `{"event_name":"click","data":{"button":"buy"},"timestamp":1632404556}`

func post(h http.Handler, path, body string) int {
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code
}

// recorder is a database stand-in for the batcher's checks: it records
// every batch it is given (fast, no services), and can fail or block.
type recorder struct {
	mu      sync.Mutex
	batches []int         // the size of each write
	seen    map[int]int   // document n → times written
	fail    atomic.Int64  // the next fail writes return an error
	partial bool          // a failing write returns only half the batch to retry
	gate    chan struct{} // when set, each write waits for a token
	delay   time.Duration // how long a write takes
}

func newRecorder() *recorder { return &recorder{seen: map[int]int{}} }

func (r *recorder) write(_ context.Context, docs []bson.D) ([]bson.D, error) {
	if r.gate != nil {
		<-r.gate
	}
	time.Sleep(r.delay)
	if r.fail.Add(-1) >= 0 {
		if r.partial {
			r.record(docs[len(docs)/2:])
			return docs[:len(docs)/2], errors.New("connection reset (half the batch written)")
		}
		return docs, errors.New("connection refused")
	}
	r.record(docs)
	return nil, nil
}

func (r *recorder) record(docs []bson.D) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.batches = append(r.batches, len(docs))
	for _, d := range docs {
		r.seen[d[0].Value.(int)]++
	}
}

// written returns how many documents were written and the batch sizes.
func (r *recorder) written() (int, []int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, c := range r.seen {
		n += c
	}
	return n, slices.Clone(r.batches)
}

// timesWritten returns document n → times written, copied under the lock:
// a wrong batcher may still be writing (a timer callback after Close), and
// reading the map while it does would crash the check, not fail it.
func (r *recorder) timesWritten() map[int]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return maps.Clone(r.seen)
}

// waitFor polls until cond holds or d has passed.
func waitFor(d time.Duration, cond func() bool) bool {
	for deadline := time.Now().Add(d); !cond(); time.Sleep(2 * time.Millisecond) {
		if time.Now().After(deadline) {
			return false
		}
	}
	return true
}

func doc(n int) bson.D { return bson.D{{Key: "n", Value: n}} }

// A full batch is written at once — it does not wait for the interval —
// and no write holds more than the batch size.
func TestAFullBatchIsWrittenAtOnce(t *testing.T) {
	r := newRecorder()
	b := New(10, 100, time.Hour, r.write) // the interval never comes: only size flushes
	defer b.Close(t.Context())
	for i := range 25 {
		if err := b.Add(doc(i)); err != nil {
			t.Fatalf("Add: %v", err)
		}
	}
	if !waitFor(2*time.Second, func() bool { n, _ := r.written(); return n >= 20 }) {
		n, _ := r.written()
		t.Fatalf("25 events with a batch size of 10: %d written after 2 s, want 20 (two full batches) at once — "+
			"flush when the batch holds b.size documents, not only when the interval has passed", n)
	}
	time.Sleep(50 * time.Millisecond)
	if n, batches := r.written(); n != 20 || !slices.Equal(batches, []int{10, 10}) {
		t.Fatalf("25 events with a batch size of 10, interval 1 h: batches %v, want [10 10] (the last 5 wait for the interval or Close)", batches)
	}
}

// One event alone is written within the flush interval, not when the
// batch is full — and under a steady trickle too: the interval counts
// from the first event of a batch, so a trickle cannot postpone it.
func TestPartialBatchesAreFlushedByTheInterval(t *testing.T) {
	t.Run("an event alone", func(t *testing.T) {
		r := newRecorder()
		b := New(1000, 100, 50*time.Millisecond, r.write)
		defer b.Close(t.Context())
		_ = b.Add(doc(1))
		if !waitFor(time.Second, func() bool { n, _ := r.written(); return n == 1 }) {
			t.Fatal("a lone event was not written within 1 s with a 50 ms flush interval: " +
				"start a timer when the first document of a batch arrives, and flush when it fires")
		}
	})
	t.Run("a trickle", func(t *testing.T) {
		r := newRecorder()
		b := New(1000, 100, 100*time.Millisecond, r.write)
		defer b.Close(t.Context())
		start := time.Now()
		for i := 0; time.Since(start) < time.Second; i++ { // one event every 20 ms, for 1 s
			_ = b.Add(doc(i))
			time.Sleep(20 * time.Millisecond)
		}
		if n, _ := r.written(); n == 0 {
			t.Fatal("one event every 20 ms for 1 s with a 100 ms flush interval: nothing written before the trickle stopped. " +
				"The interval must count from the FIRST event of a batch (Reset the timer only when a batch starts; " +
				"a time.After in the select, or a Reset per event, restarts the wait at every event)")
		}
	})
}

// Capacity bounds memory: while the database is stuck, the batcher holds
// at most Capacity waiting events plus the batch being written, and Add
// answers ErrFull (the HTTP shell's 503 + Retry-After) past that.
func TestAStuckDatabaseFillsTheBufferAndNoMore(t *testing.T) {
	const size, capacity = 10, 50
	r := newRecorder()
	r.gate = make(chan struct{})
	b := New(size, capacity, 10*time.Millisecond, r.write)
	accepted, full := 0, false
	for i := range 1000 {
		switch err := b.Add(doc(i)); {
		case err == nil:
			accepted++
		case errors.Is(err, writes.ErrFull):
			full = true
		default:
			t.Fatalf("Add: %v, want nil or ErrFull", err)
		}
		if i%10 == 0 {
			time.Sleep(time.Millisecond) // let run take what it takes
		}
	}
	close(r.gate) // the database is back
	if err := b.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	if !full || accepted > capacity+size {
		t.Fatalf("the database was stuck and the batcher accepted %d of 1000 events (capacity %d, batch size %d): "+
			"at most capacity + one batch may wait in memory, then Add must answer ErrFull (503). "+
			"Keep at most one batch out of b.queue and write it before taking more (no unbounded slice, no `go b.flush`)",
			accepted, capacity, size)
	}
	if n, _ := r.written(); n != accepted {
		t.Fatalf("accepted %d, written %d once the database was back", accepted, n)
	}
}

// A database that fails and comes back: everything accepted is written,
// exactly once.
func TestFailuresAreRetried(t *testing.T) {
	for _, partial := range []bool{false, true} {
		name := map[bool]string{false: "the whole batch fails", true: "half the batch fails"}[partial]
		t.Run(name, func(t *testing.T) {
			r := newRecorder()
			r.fail.Store(3)
			r.partial = partial
			b := New(10, 1000, 20*time.Millisecond, r.write)
			for i := range 100 {
				if err := b.Add(doc(i)); err != nil {
					t.Fatal(err)
				}
			}
			if err := b.Close(t.Context()); err != nil {
				t.Fatal(err)
			}
			if n, _ := r.written(); n != 100 || len(r.timesWritten()) != 100 {
				t.Fatalf("3 failed writes: %d of 100 events written (%d distinct): a failed batch must be retried "+
					"(flush calls writes.Persist, which retries what write returned) — never dropped, never written twice",
					n, len(r.timesWritten()))
			}
		})
	}
}

// Close writes what is still buffered before it returns: a graceful
// shutdown loses nothing accepted.
func TestCloseFlushesWhatIsLeft(t *testing.T) {
	r := newRecorder()
	b := New(1000, 100, time.Hour, r.write)
	for i := range 7 {
		_ = b.Add(doc(i))
	}
	if err := b.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	if n, _ := r.written(); n != 7 {
		t.Fatalf("Close returned with %d of 7 accepted events written: when b.queue is closed, flush the batch, then return", n)
	}
	if err := b.Add(doc(8)); !errors.Is(err, writes.ErrClosed) {
		t.Fatalf("Add after Close: %v, want ErrClosed", err)
	}
}

// Many clients at once, a short interval, writes that take a while: every
// event is written exactly once (a batch shared with another goroutine —
// a timer callback, a flush goroutine — loses or repeats events).
func TestConcurrentAddsAreEachWrittenOnce(t *testing.T) {
	r := newRecorder()
	r.delay = time.Millisecond
	b := New(100, 10_000, 2*time.Millisecond, r.write)
	var wg sync.WaitGroup
	for w := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 250 {
				for b.Add(doc(w*250+i)) != nil {
					time.Sleep(time.Millisecond)
				}
				time.Sleep(100 * time.Microsecond) // a stream, not a burst: the timer fires too
			}
		}()
	}
	wg.Wait()
	if err := b.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	lost, twice, seen := 0, 0, r.timesWritten()
	for n := range 5000 {
		switch c := seen[n]; {
		case c == 0:
			lost++
		case c > 1:
			twice++
		}
	}
	if lost > 0 || twice > 0 {
		t.Fatalf("5000 events from 20 goroutines: %d never written, %d written more than once — "+
			"the batch must belong to run alone (no timer callback or flush goroutine touching it)", lost, twice)
	}
	if _, batches := r.written(); slices.Max(batches) > 100 {
		t.Fatalf("a write of %d documents: at most the batch size (100)", slices.Max(batches))
	}
}

// BenchmarkAdd is the cost of accepting an event: go test -bench Add -benchmem.
func BenchmarkAdd(b *testing.B) {
	bt := New(1000, 1<<20, time.Second, func(context.Context, []bson.D) ([]bson.D, error) { return nil, nil })
	defer bt.Close(context.Background())
	d := doc(1)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			for bt.Add(d) != nil {
			}
		}
	})
}

// The property of step 6: 10k accepted events are 10k persisted events,
// written in about events / batch size round trips.
func TestBulkPersistsEverythingInFewRoundTrips(t *testing.T) {
	store := stacktest.Mongo(t)
	ctx := t.Context()
	before, err := store.Count(ctx) // the collection outlives the test: compare counts
	if err != nil {
		t.Fatal(err)
	}
	srv, flush := newServer(store)
	inserts := testutil.ToFloat64(metrics.MongoCommands.WithLabelValues("insert"))
	var accepted atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
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
	// About one InsertMany per BatchSize events, plus at most one partial
	// batch per FlushInterval of load (a ticker flushes those too).
	allowed := float64(10_000/BatchSize) + math.Ceil(time.Since(start).Seconds()/FlushInterval.Seconds()) + 2
	if calls := testutil.ToFloat64(metrics.MongoCommands.WithLabelValues("insert")) - inserts; calls > allowed {
		t.Fatalf("%v insert round trips for 10000 events in %s, want at most %v (one InsertMany per %d, and a partial batch per %s)",
			calls, time.Since(start).Round(time.Second), allowed, BatchSize, FlushInterval)
	}
}

// Bad input is a 4xx naming the problem, and nothing is stored.
func TestBadEventsAreRejected(t *testing.T) {
	store := stacktest.Mongo(t)
	srv, flush := newServer(store)
	defer flush(t.Context())
	for _, c := range []struct {
		name, body string
		code       int
	}{
		{"no timestamp", `{"event_name":"click","data":{"button":"buy"}}`, 400},
		{"data not an object", `{"event_name":"click","data":"x","timestamp":1632404556}`, 400},
		{"an unknown field", `{"event_name":"click","data":{},"timestamp":1632404556,"admin":true}`, 400},
		{"truncated JSON", `{"event_name":`, 400},
		{"over 64 KiB", fmt.Sprintf(`{"event_name":"click","data":{"x":"%s"},"timestamp":1632404556}`, strings.Repeat("a", 70<<10)), 413},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, route := range []string{"/events/sync", "/events/async", "/events/group", "/events/bulk"} {
				if got := post(srv, route, c.body); got != c.code {
					t.Errorf("POST %s %.50s: %d, want %d", route, c.body, got, c.code)
				}
			}
		})
	}
}
