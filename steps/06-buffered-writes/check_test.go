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
	"testing/synctest"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/peakload/workshop/internal/given/metrics"
	"github.com/peakload/workshop/internal/given/writes"
	"github.com/peakload/workshop/internal/harness/bubble"
	"github.com/peakload/workshop/internal/harness/stacktest/mongotest"
)

const event = `{"event_name":"click","data":{"button":"buy"},"timestamp":1632404556}`

func post(h http.Handler, path, body string) int {
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code
}

// patience bounds, in real time, a service test's wait for what a right
// answer does in milliseconds: a watchdog whose expiry says the machine
// stalled (bubble.Stalled), not a verdict; the verdicts are counted.
const patience = time.Minute

// inserts counts the insert commands sent to MongoDB: a right answer's
// flushes send a few; one that retries a refusal for good, one after another.
func inserts() float64 { return testutil.ToFloat64(metrics.MongoCommands.WithLabelValues("insert")) }

// mostInserts is more inserts than a right answer sends for a service
// test's few flushes and dead letters.
const mostInserts = 40

// shutdownFlush runs flush as graceful shutdown does, judged by counting,
// not timing: it fails t if flush sends over most inserts without
// returning (a refusal retried), or returns an error; past patience it
// says the machine stalled.
func shutdownFlush(t *testing.T, flush func(context.Context) error, after string, most float64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), patience)
	defer cancel()
	sent := inserts()
	go func() { // a flush that sends insert after insert is retrying: end it
		for ctx.Err() == nil && inserts()-sent <= most {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	switch err := flush(ctx); {
	case err == nil:
	case inserts()-sent > most:
		t.Fatalf("the shutdown flush %s sent over %v inserts and had not returned: %v — a poison message (a refusal for good) is being retried",
			after, most, err)
	case errors.Is(err, context.DeadlineExceeded):
		bubble.Stalled(t, patience, "the shutdown flush "+after+" return")
	default:
		t.Fatalf("the shutdown flush %s: %v", after, err)
	}
}

// waitFor polls until cond holds or d has passed (real time: the service
// tests only, whose database is outside any synctest bubble).
func waitFor(d time.Duration, cond func() bool) bool {
	for deadline := time.Now().Add(d); !cond(); time.Sleep(2 * time.Millisecond) {
		if time.Now().After(deadline) {
			return false
		}
	}
	return true
}

// The checks without services run under testing/synctest (inBubble): the
// clock is fake, so "at once", "within the interval" and "after a quiet
// minute" are exact, and no sleep is tuned to a loaded machine.

// A full batch is written at once — it does not wait for the interval —
// and no write holds more than the batch size.
func TestAFullBatchIsWrittenAtOnce(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		r := newRecorder()
		b := batcherFor(t, r, 10, 100, time.Hour) // the interval never comes: only size flushes
		addAll(t, b, 0, 25)
		synctest.Wait() // the batcher has done what it can without time passing
		if sizes := r.sizes(); len(sizes) == 0 {
			t.Fatalf("25 events added at once with a batch size of 10 and an interval of 1 h: before any time passed, nothing was written; " +
				"want two writes of 10 at once — flush when the batch holds b.size documents (the last 5 wait for the interval or Close)")
		} else if !slices.Equal(sizes, []int{10, 10}) {
			t.Fatalf("25 events added at once with a batch size of 10 and an interval of 1 h: before any time passed, "+
				"the database got writes of %v documents; want [10 10] — flush when the batch holds b.size documents "+
				"(the last 5 wait for the interval or Close)", sizes)
		}
		checkOddities(t, r)
	})
}

// One flush is one write: the events of a batch reach the database in
// one round trip (one InsertMany), not one round trip per event.
func TestEachFlushIsOneWrite(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		r := newRecorder()
		b := batcherFor(t, r, 10, 100, 100*time.Millisecond)
		addAll(t, b, 0, 7)
		time.Sleep(100 * time.Millisecond)
		synctest.Wait()
		if sizes := r.sizes(); len(sizes) == 0 {
			t.Fatalf("7 events added at once, then the 100 ms flush interval: nothing written; want one write of 7 — " +
				"a partial batch is flushed when the interval has passed since its first event")
		} else if !slices.Equal(sizes, []int{7}) {
			t.Fatalf("7 events added at once, then the 100 ms flush interval: the database got %d writes, of %v documents; "+
				"want one write of 7 — a flush is one b.flush(batch) of the whole batch, one round trip", len(sizes), sizes)
		}
		addAll(t, b, 7, 32)
		time.Sleep(100 * time.Millisecond)
		synctest.Wait()
		if n := r.written(); n < 32 {
			t.Fatalf("7 events, the interval, then 25 events at once (batch size 10) and the interval: %d of the 32 written (writes of %v documents); "+
				"want all, the last 5 by the interval after two size flushes", n, r.sizes())
		}
		if sizes := r.sizes(); !slices.Equal(sizes, []int{7, 10, 10, 5}) {
			t.Fatalf("7 events, the interval, then 25 events at once (batch size 10) and the interval: writes of %v documents; "+
				"want [7 10 10 5], one write per flush", sizes)
		}
		checkOddities(t, r)
	})
}

// Capacity bounds memory: while the database is stuck, the batcher holds
// at most Capacity waiting events plus the batch being written, and Add
// answers ErrFull at once past that (the HTTP shell's 503 + Retry-After;
// writes.WaitForRoom, not Add, is what waits for room).
func TestAStuckDatabaseFillsTheBufferAndNoMore(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		const size, capacity = 10, 50
		r := newRecorder()
		r.stuck = make(chan struct{})
		b := batcherFor(t, r, size, capacity, 10*time.Millisecond)
		accepted, full := 0, 0
		var waited time.Duration
		for i := range 1000 {
			start := time.Now()
			switch err := add(b, i); {
			case err == nil:
				accepted++
			case errors.Is(err, writes.ErrFull):
				full++
			default:
				t.Fatalf("Add(event %d) while the database is stuck: %v, want nil or ErrFull", i, err)
			}
			waited = max(waited, time.Since(start))
			if i%10 == 0 {
				synctest.Wait() // let run take what it takes
			}
		}
		r.unstick() // the database is back
		if err := closeWithin(b, time.Minute); err != nil {
			t.Fatalf("Close once the database was back: %v", err)
		}
		r.markClosed()
		switch {
		case waited > 0:
			t.Fatalf("the database was stuck and an Add waited %s before it returned: want ErrFull at once when the buffer is full "+
				"(a select with a default, as given)", waited)
		case full == 0 || accepted > capacity+size:
			t.Fatalf("the database was stuck and the batcher accepted %d of 1000 events (capacity %d, batch size %d): "+
				"at most capacity + one batch may wait in memory, then Add must answer ErrFull (503). "+
				"Keep at most one batch out of b.queue and write it before taking more (no unbounded slice, no `go b.flush`)",
				accepted, capacity, size)
		case accepted < capacity:
			t.Fatalf("the database was stuck and the batcher accepted %d of 1000 events before refusing: want at least its capacity (%d)",
				accepted, capacity)
		}
		if n := r.written(); n != accepted || len(r.timesWritten()) != accepted {
			t.Fatalf("accepted %d, then %d written (%d distinct) once the database was back: want each accepted event written once",
				accepted, n, len(r.timesWritten()))
		}
		checkOddities(t, r)
	})
}

// A database that fails and comes back: everything accepted is written,
// exactly once (flush retries with writes.Persist until it is).
func TestAFailedWriteIsRetriedUntilWritten(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		r := newRecorder()
		r.setFail(3, 0)
		b := batcherFor(t, r, 10, 1000, 20*time.Millisecond)
		addAll(t, b, 0, 100)
		if err := closeWithin(b, time.Minute); err != nil {
			t.Fatalf("Close with the database failing 3 writes, then answering: %v", err)
		}
		r.markClosed()
		if n, seen := r.written(), r.timesWritten(); n != 100 || len(seen) != 100 {
			t.Fatalf("3 failed writes, then the database answers: %d writes of the 100 events (%d distinct) when Close returned; "+
				"a failed batch must be retried (flush calls writes.Persist) — never dropped, never written twice", n, len(seen))
		}
		checkOddities(t, r)
	})
}

// A database that is down is retried after pauses that grow (flush's
// writes.Persist: 50 ms, doubling up to 2 s), not hammered in a loop: a
// tight loop burns a CPU, floods the log, and meets a database coming back
// up with a storm. The write here fails for 2 s of fake time (or until it
// has been called 1000 times, so a loop with no pause ends too).
func TestAFailingDatabaseIsRetriedWithPauses(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		var mu sync.Mutex
		var calls []time.Duration
		start := time.Now()
		const outage, most = 2 * time.Second, 1000
		write := func(_ context.Context, docs []bson.D) ([]bson.D, error) {
			mu.Lock()
			defer mu.Unlock()
			calls = append(calls, time.Since(start))
			if time.Since(start) < outage && len(calls) < most {
				return docs, errors.New("connection refused (the test's outage)")
			}
			return nil, nil
		}
		b := New(10, 1000, 20*time.Millisecond, write)
		addAll(t, b, 0, 5)
		if err := closeWithin(b, time.Minute); err != nil {
			t.Fatalf("Close with the database down for %v, then answering: %v", outage, err)
		}
		mu.Lock()
		defer mu.Unlock()
		if len(calls) > 30 {
			first := 0
			for _, at := range calls {
				if at < calls[0]+100*time.Millisecond {
					first++
				}
			}
			t.Fatalf("a database down for %v got %d write attempts, %d of them within 100 ms of the first; "+
				"want a pause between attempts that grows (flush's writes.Persist backs off from 50 ms to 2 s)", outage, len(calls), first)
		}
	})
}

// When a write fails for some documents of a batch and writes the others,
// the failed ones are sent again and none already written — new events may
// join that write (a valid design), the whole batch may not — and a
// document refused for good is set aside, not retried.
func TestAPartialFailureRetriesExactlyTheFailedDocuments(t *testing.T) {
	for _, c := range []struct {
		name          string
		poison        func(n int) bool
		retry, refuse []int
	}{
		{"transient failures", nil, []int{1, 4, 6, 7}, nil},
		{"transient failures and refusals", func(n int) bool { return n == 2 || n == 5 }, []int{1, 4, 7, 8}, []int{2, 5}},
	} {
		t.Run(c.name, func(t *testing.T) {
			inBubble(t, func(t *testing.T) { partialFailure(t, c.poison, c.retry, c.refuse) })
		})
	}
}

func partialFailure(t *testing.T, poison func(int) bool, retry, refuse []int) {
	r := newRecorder()
	r.poison = poison
	r.setFail(0, 1) // the first write fails for the ids in retry, wherever they stand in the batch
	r.partFails = func(n, _ int) bool { return slices.Contains(retry, n) }
	b := New(10, 100, time.Second, writes.DeadLetter(r.write, r.deadLetter))
	shutAtEnd(t, b, r)
	addAll(t, b, 0, 10)
	time.Sleep(10 * time.Second) // the retries' backoff, and a flush interval
	synctest.Wait()
	sent := r.sent()
	what := fmt.Sprintf("a batch of events 0…9 whose write wrote some, failed for %v (returned in retry, an error that can pass)", retry)
	if len(refuse) > 0 {
		what += fmt.Sprintf(" and refused %v for good", refuse)
	}
	if len(sent) == 0 || len(sent[0]) != 10 {
		t.Fatalf("10 events added at once, batch size 10: the first writes were sent %v; want one write of the 10", sent)
	}
	if len(sent) < 2 {
		t.Fatalf("%s: nothing was sent again within 10 s; want the failed documents retried "+
			"(flush calls writes.Persist, which retries what write returned, with backoff)", what)
	}
	// New events may join the retried write (only 0…9 are added here, so
	// any other id in it was written or refused already).
	again := slices.Sorted(slices.Values(sent[1]))
	missing := slices.DeleteFunc(slices.Clone(retry), func(n int) bool { return slices.Contains(again, n) })
	twice := slices.DeleteFunc(slices.Clone(again), func(n int) bool { return slices.Contains(retry, n) })
	if len(missing) > 0 || len(twice) > 0 {
		t.Fatalf("%s: the next write was sent %v; want all of %v, the documents write returned to retry, "+
			"and none already written or refused (new events may join it; not the whole batch again)", what, again, retry)
	}
	seen := r.timesWritten()
	for n := range 10 {
		if want := map[bool]int{true: 0, false: 1}[slices.Contains(refuse, n)]; seen[n] != want {
			t.Fatalf("%s: event %d written %d times by the end, want %d; writes sent %v", what, n, seen[n], want, sent)
		}
	}
	offered, dead := r.poisoned()
	for _, n := range refuse {
		if offered[n] != 1 || dead[n] != 1 {
			t.Fatalf("%s: refused event %d was sent %d times and dead-lettered %d times; want once each", what, n, offered[n], dead[n])
		}
	}
	checkOddities(t, r)
}

// Close writes what is still buffered before it returns — waiting for the
// retries of a failing database: a graceful shutdown loses nothing accepted.
func TestCloseWritesWhatIsLeft(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		r := newRecorder()
		r.setFail(2, 0)
		b := batcherFor(t, r, 1000, 100, time.Hour)
		addAll(t, b, 0, 7)
		if err := closeWithin(b, time.Minute); err != nil {
			t.Fatalf("Close with 7 events buffered and the database failing twice: %v", err)
		}
		r.markClosed()
		if n := r.written(); n != 7 {
			t.Fatalf("Close returned with %d writes of the 7 accepted events (the database failed the first 2 writes): "+
				"when b.queue is closed, flush the batch (flush retries), then return", n)
		}
		time.Sleep(time.Minute)
		synctest.Wait()
		checkOddities(t, r)
	})
}

// Add after Close is refused with ErrClosed — it never panics — and an
// Add racing Close is either refused or written before Close returns.
func TestAddAfterCloseIsRefused(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		for round := range 50 { // a race is a matter of luck: run it often
			closeRace(t, round)
		}
	})
}

// closeRace closes a batcher while 3 goroutines add as fast as they can,
// until each of them sees ErrClosed.
func closeRace(t *testing.T, round int) {
	r := newRecorder()
	b := batcherFor(t, r, 10, 20, 100*time.Millisecond)
	var mu sync.Mutex
	var accepted []int
	var bad []string
	var wg sync.WaitGroup
	started := make(chan struct{}, 3)
	for w := range 3 {
		wg.Go(func() {
			for i := range 20_000 {
				n := w*100_000 + i
				err := add(b, n)
				if i == 0 {
					started <- struct{}{}
				}
				mu.Lock()
				switch {
				case err == nil:
					accepted = append(accepted, n)
				case errors.Is(err, writes.ErrFull):
				case errors.Is(err, writes.ErrClosed):
					mu.Unlock()
					return
				default:
					bad = append(bad, fmt.Sprintf("event %d: %v", n, err))
				}
				mu.Unlock()
			}
		})
	}
	for range 3 {
		<-started
	}
	err := closeWithin(b, time.Minute) // while the 3 goroutines add
	r.markClosed()
	wg.Wait()
	if err != nil {
		t.Fatalf("round %d: Close while 3 goroutines add: %v", round, err)
	}
	for i := range 5 {
		if err := add(b, 1_000_000+i); !errors.Is(err, writes.ErrClosed) {
			t.Fatalf("round %d: Add after Close returned: %v, want ErrClosed", round, err)
		}
	}
	if len(bad) > 0 {
		t.Fatalf("round %d: Adds racing Close: %d answered neither nil, ErrFull nor ErrClosed, e.g. %s", round, len(bad), bad[0])
	}
	seen := r.timesWritten()
	for _, n := range accepted {
		if seen[n] != 1 {
			t.Fatalf("round %d: Adds racing Close: event %d was accepted (nil) and written %d times when Close returned; want once",
				round, n, seen[n])
		}
	}
	time.Sleep(time.Minute)
	synctest.Wait()
	seen = r.timesWritten()
	for _, n := range accepted {
		if seen[n] > 1 {
			t.Fatalf("round %d: Adds racing Close: event %d was accepted and written %d times by the end; want once", round, n, seen[n])
		}
		delete(seen, n)
	}
	if len(seen) > 0 {
		t.Fatalf("round %d: Adds racing Close: %d events that Add refused were written (e.g. event %d)", round, len(seen), slices.Min(slices.Collect(maps.Keys(seen))))
	}
	checkOddities(t, r)
}

// Many clients at once, a short interval, writes that take a while: every
// event is written exactly once (a batch shared with another goroutine —
// a timer callback, a flush goroutine — loses or repeats events).
//
// Real time, on purpose: the races this looks for need goroutines that
// truly run at once, interleaved by the scheduler. The sleeps only pace
// the stream; no assertion depends on how long they last.
func TestConcurrentAddsAreEachWrittenOnce(t *testing.T) {
	r := newRecorder()
	b := New(100, 10_000, 2*time.Millisecond, func(ctx context.Context, docs []bson.D) ([]bson.D, error) {
		time.Sleep(time.Millisecond) // a write takes a while: Adds and the timer go on meanwhile
		return r.write(ctx, docs)
	})
	var wg sync.WaitGroup
	var refused atomic.Int64
	for w := range 20 {
		wg.Go(func() {
			for i := range 250 {
				for try := 0; add(b, w*250+i) != nil; try++ {
					if try == 1000 {
						refused.Add(1)
						break
					}
					time.Sleep(time.Millisecond)
				}
				time.Sleep(100 * time.Microsecond) // a stream, not a burst: the timer fires too
			}
		})
	}
	wg.Wait()
	if err := closeWithin(b, patience); err != nil {
		t.Fatalf("Close after 5000 events from 20 goroutines: %v", err)
	}
	r.markClosed()
	if n := refused.Load(); n > 0 {
		t.Fatalf("5000 events from 20 goroutines, capacity 10000: %d events still refused after 1000 tries", n)
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
	if sizes := r.sizes(); slices.Max(sizes) > 100 {
		t.Fatalf("a write of %d documents: at most the batch size (100)", slices.Max(sizes))
	}
	checkOddities(t, r)
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
		t.Run(name, func(t *testing.T) { inBubble(t, func(t *testing.T) { poisonEvents(t, partial) }) })
	}
}

func poisonEvents(t *testing.T, partial bool) {
	r := newRecorder()
	r.poison = func(n int) bool { return n%7 == 3 }
	r.setFail(map[bool]int{false: 4}[partial], map[bool]int{true: 4}[partial])
	b := New(10, 1000, 20*time.Millisecond, writes.DeadLetter(r.write, r.deadLetter))
	shutAtEnd(t, b, r)
	addAll(t, b, 0, 200)
	// Events sent after the poison ones are written within a few flush
	// intervals (and the retries' backoff), while the batcher runs:
	// nothing waits behind them.
	time.Sleep(2 * time.Second)
	synctest.Wait()
	ok := r.timesWritten()[198] == 1
	closeErr := closeWithin(b, 5*time.Second)
	r.markClosed()
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
	checkOddities(t, r)
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
	store := mongotest.Store(t)
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
	store := mongotest.Store(t)
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
	store := mongotest.Store(t)
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
	// Counted, not timed: a right answer stores them in a few inserts (a
	// flush per route, and the dead letters); one that retries a refused
	// event sends insert after insert and stores nothing behind it.
	want := int64(1 + 5*len(routes))
	sent := inserts()
	stored := func() bool { n, _ := store.Count(ctx); return n == want }
	if !waitFor(patience, func() bool { return stored() || inserts()-sent > mostInserts }) {
		bubble.Stalled(t, patience, fmt.Sprintf("%d good events stored, or over %d inserts sent", want, mostInserts))
	}
	if !stored() {
		n, _ := store.Count(ctx)
		t.Fatalf("after the poison events, %v inserts reached the database and %d of %d good events were stored — "+
			"the ones behind a refused event wait for it while it is sent again", inserts()-sent, n, want)
	}
	shutdownFlush(t, flush, "after poison events", mostInserts)
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
