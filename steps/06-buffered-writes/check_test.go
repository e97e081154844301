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
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/peakload/workshop/internal/events"
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
	batches []int            // the size of each write
	seen    map[int]int      // document n → times written
	fail    atomic.Int64     // the next fail writes return an error
	partial bool             // a failing write returns only half the batch to retry
	gate    chan struct{}    // when set, each write waits for a token
	delay   time.Duration    // how long a write takes
	poison  func(n int) bool // documents the database refuses for good
	offered map[int]int      // poison document n → times sent to the database
	dead    map[int]int      // poison document n → times dead-lettered
}

func newRecorder() *recorder {
	return &recorder{seen: map[int]int{}, offered: map[int]int{}, dead: map[int]int{}}
}

func (r *recorder) write(_ context.Context, docs []bson.D) ([]bson.D, error) {
	if r.gate != nil {
		<-r.gate
	}
	time.Sleep(r.delay)
	good, refused := r.refuse(docs)
	if r.fail.Add(-1) >= 0 {
		if r.partial {
			r.record(good[len(good)/2:])
			return append(good[:len(good)/2:len(good)/2], refusedDocs(refused)...),
				events.JoinRefused(errors.New("connection reset (half the batch written)"), refused)
		}
		return docs, errors.New("connection refused")
	}
	r.record(good)
	if len(refused) > 0 { // as events.Store.InsertMany: refused documents are not written, and said so
		return refusedDocs(refused), refused
	}
	return nil, nil
}

// refuse splits docs into those the database takes and the poison ones.
func (r *recorder) refuse(docs []bson.D) (good []bson.D, refused events.Refused) {
	if r.poison == nil {
		return docs, nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, d := range docs {
		if n := d[0].Value.(int); r.poison(n) {
			r.offered[n]++
			refused = append(refused, events.Refusal{Doc: d, Reason: "invalid_key", Err: fmt.Errorf("invalid key in document %d", n)})
		} else {
			good = append(good, d)
		}
	}
	return good, refused
}

func refusedDocs(refused events.Refused) []bson.D {
	docs := make([]bson.D, len(refused))
	for i, x := range refused {
		docs[i] = x.Doc
	}
	return docs
}

// deadLetter is the dead-letter collection's stand-in.
func (r *recorder) deadLetter(_ context.Context, refused events.Refused) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, x := range refused {
		r.dead[x.Doc[0].Value.(int)]++
	}
	return nil
}

// poisoned returns poison document n → times sent, and → times dead-lettered.
func (r *recorder) poisoned() (offered, dead map[int]int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return maps.Clone(r.offered), maps.Clone(r.dead)
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

// doc is document n; its _id is what a refusal names (events.Refusal).
func doc(n int) bson.D { return bson.D{{Key: "_id", Value: n}} }

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

// A poison message — a document the database refuses for good — is set
// aside (dead-lettered) after one refusal, and the rest of its batch is
// written: never retried without end, never dropping the good events
// beside it, never holding up those behind it. Transient failures in the
// same batches are still retried. The write is the one main.go gives your
// batcher: the store's, wrapped in writes.DeadLetter.
func TestAPoisonEventIsSetAsideNotRetried(t *testing.T) {
	for _, partial := range []bool{false, true} {
		name := map[bool]string{false: "with whole batches failing", true: "with half batches failing"}[partial]
		t.Run(name, func(t *testing.T) {
			r := newRecorder()
			r.poison = func(n int) bool { return n%7 == 3 }
			r.fail.Store(4)
			r.partial = partial
			b := New(10, 1000, 20*time.Millisecond, writes.DeadLetter(r.write, r.deadLetter))
			for i := range 200 {
				if err := b.Add(doc(i)); err != nil {
					t.Fatal(err)
				}
			}
			// Events sent after the poison ones are written within a few
			// flush intervals, while the batcher runs: nothing waits behind it.
			ok := waitFor(2*time.Second, func() bool { return r.timesWritten()[198] == 1 })
			ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
			defer cancel()
			closeErr := b.Close(ctx)
			offered, dead := r.poisoned()
			if closeErr != nil {
				t.Fatalf("Close did not return within 5 s: %v. The database refused %d documents for good and they were sent %d times: "+
					"a poison message is retried for ever when flush retries on any error; writes.Persist retries only what write returns in retry",
					closeErr, len(offered), sum(offered))
			}
			lost, twice, seen := 0, 0, r.timesWritten()
			for n := range 200 {
				switch c := seen[n]; {
				case r.poison(n):
				case c == 0:
					lost++
				case c > 1:
					twice++
				}
			}
			if lost > 0 || twice > 0 {
				t.Fatalf("200 events, 29 of them refused for good, 4 writes failing: %d good events never written, %d written more than once — "+
					"one bad document must not cost the batch it is in (flush keeps what write returns to retry, and only that)", lost, twice)
			}
			for n := range 200 {
				if r.poison(n) && (dead[n] != 1 || offered[n] > 5) {
					t.Fatalf("poison document %d: sent to the database %d times, dead-lettered %d times; want dead-lettered once, "+
						"after at most one refusal per failed write (5)", n, offered[n], dead[n])
				}
			}
			if !ok {
				t.Fatalf("the last good event (198) was not written within 2 s with a 20 ms interval: the poison events before it held it up")
			}
		})
	}
}

func sum(m map[int]int) (n int) {
	for _, v := range m {
		n += v
	}
	return n
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
		// What the database would refuse for good is refused at the edge.
		{"a key starting with '$'", `{"event_name":"click","data":{"$where":1},"timestamp":1632404556}`, 400},
		{"a key twice", `{"event_name":"click","data":{"a":1,"a":2},"timestamp":1632404556}`, 400},
		{"a NUL in a key", `{"event_name":"click","data":{"a\u0000b":1},"timestamp":1632404556}`, 400},
		{"nested deeper than 100 levels", `{"event_name":"click","data":` + strings.Repeat(`{"x":`, 100) + `1` + strings.Repeat(`}`, 100) + `,"timestamp":1632404556}`, 400},
		{"a dot in a key (" + store.Rules.Store + ")", `{"event_name":"click","data":{"0.95":1},"timestamp":1632404556}`, map[bool]int{false: 400, true: 202}[store.Rules.DotsInKeys]},
		{"an array in an array (" + store.Rules.Store + ")", `{"event_name":"click","data":{"a":[[1]]},"timestamp":1632404556}`, map[bool]int{false: 400, true: 202}[store.Rules.NestedArrays]},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, route := range []string{"/events/sync", "/events/async", "/events/group", "/events/bulk"} {
				want := c.code
				if want == 202 && route == "/events/sync" {
					want = 201
				}
				if got := post(srv, route, c.body); got != want {
					t.Errorf("POST %s %.50s: %d, want %d", route, c.body, got, want)
				}
			}
		})
	}
}

// A refusal the edge cannot see — a duplicate on a unique index: one order,
// one checkout event — meets the real database. sync answers 422 naming it
// (never 503 + Retry-After: it would be sent again for ever); async, group
// and bulk have already answered 202, so the event is dead-lettered and
// counted, the good events around it are persisted within a few flush
// intervals, and the shutdown flush returns at once: accepted = persisted
// + dead-lettered.
func TestARefusalForGoodIsDeadLetteredNotRetried(t *testing.T) {
	store := stacktest.Mongo(t)
	ctx := t.Context()
	if _, err := store.Events.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "data.order_id", Value: 1}},
		Options: options.Index().SetUnique(true).SetSparse(true)}); err != nil {
		t.Fatalf("create the unique index: %v", err)
	}
	srv, flush := newServer(store)
	rejected := func() float64 { return testutil.ToFloat64(metrics.EventsRejected.WithLabelValues("duplicate_key")) }
	accepted0, persisted0, rejected0 := testutil.ToFloat64(metrics.EventsAccepted), testutil.ToFloat64(metrics.EventsPersisted), rejected()
	order := `{"event_name":"checkout","data":{"order_id":7},"timestamp":1632404556}`
	if got := post(srv, "/events/sync", order); got != http.StatusCreated {
		t.Fatalf("the first checkout of order 7: %d, want 201", got)
	}
	req := httptest.NewRequest(http.MethodPost, "/events/sync", strings.NewReader(order))
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	if rec.Code != http.StatusUnprocessableEntity || rec.Header().Get("Retry-After") != "" || !strings.Contains(rec.Body.String(), "duplicate_key") {
		t.Fatalf("a second checkout of order 7 on sync: %d, Retry-After %q, %s; want 422 naming duplicate_key, no Retry-After",
			rec.Code, rec.Header().Get("Retry-After"), rec.Body.String())
	}
	routes := []string{"/events/async", "/events/group", "/events/bulk"}
	for _, route := range routes {
		if got := post(srv, route, order); got != http.StatusAccepted {
			t.Fatalf("POST %s order 7 again: %d, want 202 (the edge cannot know the order is taken)", route, got)
		}
		for range 5 {
			if got := post(srv, route, event); got != http.StatusAccepted {
				t.Fatalf("POST %s: %d, want 202", route, got)
			}
		}
	}
	want := int64(1 + 5*len(routes))
	if !waitFor(3*time.Second, func() bool { n, _ := store.Count(ctx); return n == want }) {
		n, _ := store.Count(ctx)
		t.Fatalf("3 s after the poison events: %d of %d good events stored — the ones behind a refused event wait for it", n, want)
	}
	sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	start := time.Now()
	if err := flush(sctx); err != nil {
		t.Fatalf("the shutdown flush after poison events: %v (after %s)", err, time.Since(start).Round(time.Millisecond))
	}
	dead, err := store.DeadLetterColl.CountDocuments(ctx, bson.D{})
	if err != nil {
		t.Fatal(err)
	}
	accepted := testutil.ToFloat64(metrics.EventsAccepted) - accepted0
	persisted := testutil.ToFloat64(metrics.EventsPersisted) - persisted0
	if dead != int64(len(routes)) || rejected()-rejected0 != float64(len(routes)) || accepted != persisted+rejected()-rejected0 {
		t.Fatalf("3 accepted events refused for good: %d dead letters stored, %v counted rejected; accepted %v, persisted %v: "+
			"want 3, 3, and accepted = persisted + rejected", dead, rejected()-rejected0, accepted, persisted)
	}
}
