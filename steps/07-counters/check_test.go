package main

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/counters"
	"github.com/peakload/workshop/internal/events"
	"github.com/peakload/workshop/internal/metrics"
	"github.com/peakload/workshop/internal/stacktest"
	"github.com/peakload/workshop/internal/writes"
)

// run makes counter ids unique to this test run: the database outlives it.
var run = fmt.Sprintf("t%d", time.Now().UnixNano())

// batch returns n increments over k ids of this run (hot-skewed, fixed
// seed) and how many each id received.
func batch(prefix string, n, k int) ([]bson.D, map[string]int64) {
	docs := make([]bson.D, 0, n)
	want := map[string]int64{}
	r := rand.New(rand.NewPCG(1, 2))
	for range n {
		id := fmt.Sprintf("%s-%s-%d", run, prefix, r.IntN(k))
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
	c := stacktest.Mongo(t).Counters().Variant("check")
	docs, want := batch("once", 1000, 20)
	writes := testutil.ToFloat64(metrics.DBWrites)
	persisted := testutil.ToFloat64(metrics.EventsPersisted)
	if retry, err := Reduce(c)(t.Context(), docs); err != nil || len(retry) > 0 {
		t.Fatalf("Reduce: %v, %d to retry", err, len(retry))
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
	c := stacktest.Mongo(t).Counters().Variant("check")
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
	writes.Persist(write, docs)
	checkValues(t, c, want, "a flush retried after a lost acknowledgement was applied twice: "+
		"call c.IncMany with the ctx your write was given (it carries the batch's number), not a new context")
}

// A write that fails returns every request behind the failed ids, so that
// the batcher's retry applies them all; nothing is counted as persisted.
func TestAFailedWriteReturnsEveryRequestToRetry(t *testing.T) {
	c := stacktest.Mongo(t).Counters().Variant("check")
	docs, want := batch("retry", 1000, 20)
	persisted := testutil.ToFloat64(metrics.EventsPersisted)
	down, cancel := context.WithCancel(t.Context())
	cancel() // the database is unreachable for this write: every id fails
	retry, err := Reduce(c)(down, docs)
	if err == nil {
		t.Fatal("Reduce returned no error for a write that failed: return IncMany's error, the batcher retries on it")
	}
	got := map[string]int64{}
	for _, d := range retry {
		got[counters.IDOf(d)]++
	}
	if !maps.Equal(got, want) {
		t.Fatalf("every id failed, and Reduce returned %d documents to retry over %d ids, want all 1000 over %d: "+
			"the documents to retry are every request behind each failed id (failed holds indexes into your increments, not into docs)",
			len(retry), len(got), len(want))
	}
	if n := testutil.ToFloat64(metrics.EventsPersisted) - persisted; n != 0 {
		t.Fatalf("a write that failed entirely added %v to metrics.EventsPersisted, want 0: count only what was written", n)
	}
	if retry, err := Reduce(c)(t.Context(), retry); err != nil || len(retry) > 0 { // the batcher's retry
		t.Fatalf("the retry: %v, %d to retry", err, len(retry))
	}
	checkValues(t, c, want, "after the retry, every increment is applied once")
}

// The reduction belongs to one flush: a second batch through the same
// write adds its own counts, nothing of the first.
func TestTwoFlushesAddUp(t *testing.T) {
	c := stacktest.Mongo(t).Counters().Variant("check")
	write := Reduce(c)
	first, want := batch("twice", 300, 10)
	second, more := batch("twice", 200, 10)
	for id, n := range more {
		want[id] += n
	}
	for i, docs := range [][]bson.D{first, second} {
		if retry, err := write(t.Context(), docs); err != nil || len(retry) > 0 {
			t.Fatalf("flush %d: %v, %d to retry", i+1, err, len(retry))
		}
	}
	checkValues(t, c, want, "two flushes through the same Reduce(c): count each batch afresh (a map made inside the returned func, not beside it)")
}

// N increments over K ids through the HTTP route: every value exact.
func TestEveryIncrementCounts(t *testing.T) {
	c := stacktest.Mongo(t).Counters()
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
				rec := httptest.NewRecorder()
				srv.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, fmt.Sprintf("/counters/reduce/%s-http-%d", run, i), nil))
				if rec.Code != http.StatusAccepted {
					t.Errorf("POST: %d %s", rec.Code, rec.Body)
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
	c := stacktest.Mongo(b).Counters().Variant("bench")
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
