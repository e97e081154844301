package main

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/given/counters"
	"github.com/peakload/workshop/internal/given/events"
	"github.com/peakload/workshop/internal/given/metrics"
	"github.com/peakload/workshop/internal/given/writes"
	"github.com/peakload/workshop/internal/harness/bubble"
	"github.com/peakload/workshop/internal/harness/stacktest/mongotest"
)

// run makes counter ids unique to this test run: the database outlives it.
var run = fmt.Sprintf("t%d", time.Now().UnixNano())

// batch returns n increments over k ids of this run (hot-skewed, fixed
// seed) and how many each id received.
func batch(prefix string, n, k int) ([]bson.D, map[string]int64) {
	return batchIDs(run+"-"+prefix, n, k)
}

// batchIDs is batch with ids prefix-0 … prefix-(k-1), for the in-memory
// database, which starts empty.
func batchIDs(prefix string, n, k int) ([]bson.D, map[string]int64) {
	docs := make([]bson.D, 0, n)
	want := map[string]int64{}
	r := rand.New(rand.NewPCG(1, 2))
	for range n {
		id := fmt.Sprintf("%s-%d", prefix, r.IntN(k))
		docs = append(docs, counters.Doc(id))
		want[id]++
	}
	return docs, want
}

func checkValues(t *testing.T, c *events.Counters, want map[string]int64, why string) {
	t.Helper()
	for id, n := range want {
		if got, err := c.Value(t.Context(), id); err != nil || got != n {
			t.Fatalf("counter %s = %d (%v), want %d: %s", id, got, err, n, why)
		}
	}
}

// The property of step 7: one write per distinct id in a flush, not one per
// request — the same final values — and every request counted as persisted.
func TestReduceWritesOncePerDistinctID(t *testing.T) {
	c := mongotest.Store(t).Counters().Variant("check")
	docs, want := batch("once", 1000, 20)
	writes := testutil.ToFloat64(metrics.DBWrites)
	persisted := testutil.ToFloat64(metrics.EventsPersisted)
	updates := testutil.ToFloat64(metrics.MongoCommands.WithLabelValues("update"))
	if retry, err := mustWrite(t, Reduce(c), t.Context(), docs); err != nil || len(retry) > 0 {
		t.Fatalf("Reduce: %v, %d to retry", err, len(retry))
	}
	if n := testutil.ToFloat64(metrics.MongoCommands.WithLabelValues("update")) - updates; n != 1 {
		t.Fatalf("a flush of 1000 increments over %d ids sent %v update commands to MongoDB, want 1 (one round trip per flush)", len(want), n)
	}
	if n := testutil.ToFloat64(metrics.DBWrites) - writes; n != float64(len(want)) {
		t.Fatalf("a flush of 1000 increments over %d ids made %v writes, want %d (one $inc of the id's count per distinct id)", len(want), n, len(want))
	}
	checkValues(t, c, want, "each id's $inc must carry the number of requests for it in the batch")
	if n := testutil.ToFloat64(metrics.EventsPersisted) - persisted; n != 1000 {
		t.Fatalf("a flush of 1000 increments added %v to metrics.EventsPersisted, want 1000 (one per request written, "+
			"not per id): the bench waits until persisted == accepted", n)
	}
}

// A flush whose acknowledgement is lost (MongoDB killed mid-bulkWrite) is
// retried; through counters.Idempotent, as main.go writes it, every counter
// still ends exact. It holds only if Reduce hands its ctx on to IncMany:
// the batch's number travels in it.
func TestARetriedFlushCountsOnce(t *testing.T) {
	c := mongotest.Store(t).Counters().Variant("check")
	docs, want := batch("lostack", 1000, 20)
	lost := false
	write := counters.Idempotent(func(ctx context.Context, docs []bson.D) ([]bson.D, error) {
		retry, err := Reduce(c)(ctx, docs)
		if err == nil && !lost { // the write got in, its acknowledgement did not
			lost = true
			return docs, fmt.Errorf("connection reset by peer")
		}
		return retry, err
	})
	for attempt := 1; len(docs) > 0; attempt++ { // writes.Persist, bounded
		if attempt > 5 {
			t.Fatalf("5 attempts of a flush whose first acknowledgement was lost still left %d to retry", len(docs))
		}
		docs, _ = mustWrite(t, write, t.Context(), docs)
	}
	checkValues(t, c, want, "a flush retried after a lost acknowledgement was applied twice: "+
		"call c.IncMany with the ctx your write was given (it carries the batch's number), not a new context")
}

// A write that fails returns every request behind the failed ids, so that
// the batcher's retry applies them all; nothing is counted as persisted.
func TestAFailedWriteReturnsEveryRequestToRetry(t *testing.T) {
	c := mongotest.Store(t).Counters().Variant("check")
	docs, want := batch("retry", 1000, 20)
	persisted := testutil.ToFloat64(metrics.EventsPersisted)
	down, cancel := context.WithCancel(t.Context())
	cancel() // the database is unreachable for this write: every id fails
	retry, err := mustWrite(t, Reduce(c), down, docs)
	if err == nil {
		t.Fatalf("a write given a context already cancelled (the database out of reach) returned no error and %d to retry: "+
			"hand your ctx on to IncMany and return its error, the batcher retries on it", len(retry))
	}
	if got := perID(retry); !maps.Equal(got, want) {
		t.Fatalf("every id failed, and Reduce returned %d documents to retry over %d ids, want all 1000 over %d: "+
			"the documents to retry are every request behind each failed id (failed holds indexes into your increments, not into docs)",
			len(retry), len(got), len(want))
	}
	if n := testutil.ToFloat64(metrics.EventsPersisted) - persisted; n != 0 {
		t.Fatalf("a write that failed entirely added %v to metrics.EventsPersisted, want 0: count only what was written", n)
	}
	if retry, err := mustWrite(t, Reduce(c), t.Context(), retry); err != nil || len(retry) > 0 { // the batcher's retry
		t.Fatalf("the retry: %v, %d to retry", err, len(retry))
	}
	checkValues(t, c, want, "after the retry, every increment is applied once")
}

// One id whose write fails on the real database — its counter holds a
// string, so $inc is refused for that id only — makes the write return
// exactly that id's requests, with IncMany's error; the other ids are
// persisted once, and a second attempt does not count them twice.
func TestOnFerretDBAFailingIDIsRetriedAlone(t *testing.T) {
	c := mongotest.Store(t).Counters().Variant("check")
	docs, want := batch("partialdb", 400, 12)
	bad := slices.Sorted(maps.Keys(want))[5] // in the middle: FerretDB stops at its first error (IncMany resends the rest)
	if _, err := c.Coll.InsertOne(t.Context(), bson.D{{Key: "_id", Value: bad}, {Key: "value", Value: "not a number"}}); err != nil {
		t.Fatal(err)
	}
	write := Reduce(c)
	for attempt := 1; attempt <= 2; attempt++ {
		retry, err := mustWrite(t, write, t.Context(), docs)
		if got := perID(retry); !maps.Equal(got, map[string]int64{bad: want[bad]}) {
			t.Fatalf("attempt %d, counter %s holding a string among 12: the write returned %d to retry, per id %s; want exactly its %d requests",
				attempt, bad, len(retry), show(got), want[bad])
		}
		var refused events.Refused
		if !errors.As(err, &refused) {
			t.Fatalf("attempt %d: the write returned error %v; want IncMany's, naming the refused id (events.Refused)", attempt, err)
		}
		docs = retry
	}
	delete(want, bad)
	checkValues(t, c, want, "the 11 ids beside the refused one: persisted once by the first attempt, untouched by the second")
}

// postAccepted POSTs path until it is accepted (202). A 503 is the
// buffer's backpressure, which a slow database on a loaded machine meets
// whatever the answer: the increment was not taken, and is sent again, as
// a client told to retry later does. Any other answer fails the test; a
// server that refuses for a minute is reported (a watchdog, no verdict on
// speed).
func postAccepted(t *testing.T, srv http.Handler, path string) bool {
	for start := time.Now(); ; time.Sleep(5 * time.Millisecond) {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, path, nil))
		switch {
		case rec.Code == http.StatusAccepted:
			return true
		case rec.Code != http.StatusServiceUnavailable:
			t.Errorf("POST: %d %s", rec.Code, rec.Body)
			return false
		case time.Since(start) > time.Minute:
			t.Errorf("POST %s: 503 %s for a minute: the buffer never made room (is it flushed?)", path, rec.Body)
			return false
		}
	}
}

// N increments over K ids through the HTTP route: every value exact.
func TestEveryIncrementCounts(t *testing.T) {
	c := mongotest.Store(t).Counters()
	srv, flush := newServer(c)
	const n, k = 3000, 25
	want := make([]int64, k)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 7))
			for range n / 20 {
				i := min(int(r.ExpFloat64()*4), k-1) // hot-skewed
				if !postAccepted(t, srv, fmt.Sprintf("/counters/reduce/%s-http-%d", run, i)) {
					return
				}
				mu.Lock()
				want[i]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if err := flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	for i, n := range want {
		id := fmt.Sprintf("%s-http-%d", run, i)
		if got, err := c.Variant("reduce").Value(t.Context(), id); err != nil || got != n {
			t.Fatalf("counter %s = %d (%v), want %d", id, got, err, n)
		}
	}
	for _, c := range []struct {
		name, path string
		code       int
	}{
		{"an id with a space", "/counters/reduce/bad%20id", 400},
		{"a 65-byte id", "/counters/reduce/" + strings.Repeat("x", 65), 400},
		{"a good id, sync", "/counters/sync/" + run + "-x", 201},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, c.path, nil))
			if rec.Code != c.code {
				t.Errorf("POST %s: %d, want %d", c.path, rec.Code, c.code)
			}
		})
	}
}

// BenchmarkFlush is the cost of one flush of 1000 increments over 20 ids,
// written per request (the bulk variant) and reduced (yours), against the
// running database: go test -bench Flush (make up first).
func BenchmarkFlush(b *testing.B) {
	c := mongotest.Store(b).Counters().Variant("bench")
	docs, _ := batch("bench", 1000, 20)
	for _, v := range []struct {
		name  string
		write writes.WriteFunc
	}{{"per-request", counters.PerRequest(c)}, {"reduce", Reduce(c)}} {
		b.Run(v.name, func(b *testing.B) {
			before := testutil.ToFloat64(metrics.DBWrites)
			for b.Loop() {
				if _, err := v.write(b.Context(), docs); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((testutil.ToFloat64(metrics.DBWrites)-before)/float64(b.N), "writes/op")
		})
	}
}

// A counter the database refuses to increment for good — its value is a
// string, written there by someone else — is a poison message: sync
// answers 422 naming it (not 503 + Retry-After); async, bulk and reduce,
// which have answered 202, dead-letter its increments and count them, the
// other counters of the same batches are right, and the shutdown flush
// returns at once. Your Reduce must return the requests of every failed id
// (IncMany's indexes), the refused ones among them.
func TestAPoisonedCounterIsDeadLetteredNotRetried(t *testing.T) {
	store := mongotest.Store(t)
	c := store.Counters()
	ctx := t.Context()
	start := time.Now().Add(-time.Second)
	poisoned, good := run+"-poisoned", run+"-good"
	variants := []string{"sync", "async", "bulk", "reduce"}
	var names []string
	for _, v := range variants {
		coll := c.Variant(v).Coll
		names = append(names, coll.Name())
		// The good counter exists already: concurrent upserts of a new id
		// are another story (async's background inserts race to create it).
		if _, err := coll.InsertMany(ctx, []any{bson.D{{Key: "_id", Value: poisoned}, {Key: "value", Value: "not a number"}},
			bson.D{{Key: "_id", Value: good}, {Key: "value", Value: int64(0)}}}); err != nil {
			t.Fatal(err)
		}
	}
	srv, flush := newServer(c)
	rejected := func() float64 { return testutil.ToFloat64(metrics.EventsRejected.WithLabelValues("type_mismatch")) }
	rejected0 := rejected()
	send := func(path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, path, nil))
		return rec
	}
	if rec := send("/counters/sync/" + poisoned); rec.Code != http.StatusUnprocessableEntity || rec.Header().Get("Retry-After") != "" {
		t.Fatalf("sync on a counter holding a string: %d, Retry-After %q, %s; want 422 naming the refusal, no Retry-After",
			rec.Code, rec.Header().Get("Retry-After"), rec.Body)
	}
	settled := func() float64 {
		return testutil.ToFloat64(metrics.EventsPersisted) + testutil.ToFloat64(metrics.EventsRejected.WithLabelValues("type_mismatch"))
	}
	for _, v := range variants[1:] {
		for range 3 {
			for _, id := range []string{poisoned, good} {
				before := settled()
				if rec := send("/counters/" + v + "/" + id); rec.Code != http.StatusAccepted {
					t.Fatalf("POST /counters/%s/%s: %d %s, want 202", v, id, rec.Code, rec.Body)
				}
				// async one at a time: FerretDB 1.24 can lose concurrent $inc of one document (seen here)
				if v == "async" && !waitFor(patience, func() bool { return settled() > before }) {
					bubble.Stalled(t, patience, "an async increment persisted or set aside before the next one")
				}
			}
		}
	}
	// Counted, not timed: a right answer's flush sends a few updates; one
	// that retries a refusal for good, one after another. That is ended.
	sctx, cancel := context.WithTimeout(ctx, patience)
	defer cancel()
	updates := func() float64 { return testutil.ToFloat64(metrics.MongoCommands.WithLabelValues("update")) }
	const mostUpdates = 40
	sent := updates()
	go func() {
		for sctx.Err() == nil && updates()-sent <= mostUpdates {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	switch err := flush(sctx); {
	case err == nil:
	case updates()-sent > mostUpdates || !errors.Is(err, context.DeadlineExceeded):
		t.Fatalf("the shutdown flush after a poisoned counter: %v, after %v updates — are its increments retried for ever? "+
			"Return IncMany's error as it is (wrapped with %%w at most): it says which ids were refused for good", err, updates()-sent)
	default:
		bubble.Stalled(t, patience, "the shutdown flush return")
	}
	for _, v := range variants[1:] {
		checkValues(t, c.Variant(v), map[string]int64{good: 3}, v+": the good counter beside the poisoned one")
	}
	dead, err := c.Coll.Database().Collection("dead_letters").CountDocuments(ctx, bson.D{
		{Key: "collection", Value: bson.D{{Key: "$in", Value: names}}}, {Key: "refused_at", Value: bson.D{{Key: "$gte", Value: start}}}})
	if err != nil {
		t.Fatal(err)
	}
	if n := rejected() - rejected0; n != 9 || dead < 9 {
		t.Fatalf("9 accepted increments of a poisoned counter (3 each on async, bulk, reduce): %v counted rejected, %d dead letters; want 9 and 9", n, dead)
	}
}

// patience bounds, in real time, a service test's wait for what a right
// answer does in milliseconds: a watchdog whose expiry says the machine
// stalled (bubble.Stalled), not a verdict.
const patience = time.Minute

// waitFor polls until cond holds or d has passed.
func waitFor(d time.Duration, cond func() bool) bool {
	for deadline := time.Now().Add(d); !cond(); time.Sleep(2 * time.Millisecond) {
		if time.Now().After(deadline) {
			return false
		}
	}
	return true
}
