package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/metrics"
	"github.com/peakload/workshop/internal/stacktest"
	"github.com/peakload/workshop/internal/counters"
)

// run makes counter ids unique to this test run: the database outlives it.
var run = fmt.Sprintf("t%d", time.Now().UnixNano())

// The property of step 7: one write per distinct id in a flush, not one per
// request — and the same final values.
func TestReduceWritesOncePerDistinctID(t *testing.T) {
	c := stacktest.Mongo(t).Counters()
	docs := make([]bson.D, 0, 1000)
	want := map[string]int64{}
	r := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		id := fmt.Sprintf("%s-%d", run, r.IntN(20)) // 20 ids
		docs = append(docs, counters.Doc(id))
		want[id]++
	}
	before := testutil.ToFloat64(metrics.DBWrites)
	if retry, err := Reduce(c)(context.Background(), docs); err != nil || len(retry) > 0 {
		t.Fatalf("Reduce: %v, %d to retry", err, len(retry))
	}
	if writes := testutil.ToFloat64(metrics.DBWrites) - before; writes != float64(len(want)) {
		t.Fatalf("a flush of 1000 increments over %d ids made %v writes, want %d", len(want), writes, len(want))
	}
	for id, n := range want {
		if got, err := c.Value(context.Background(), id); err != nil || got != n {
			t.Fatalf("counter %s = %d (%v), want %d", id, got, err, n)
		}
	}
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
	if err := flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	for i, n := range want {
		id := fmt.Sprintf("%s-http-%d", run, i)
		if got, err := c.Variant("reduce").Value(context.Background(), id); err != nil || got != n {
			t.Fatalf("counter %s = %d (%v), want %d", id, got, err, n)
		}
	}
	for path, code := range map[string]int{"/counters/reduce/bad%20id": 400, "/counters/sync/" + string(make([]byte, 0)) + "x": 201} {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, path, nil))
		if rec.Code != code {
			t.Errorf("POST %s: %d, want %d", path, rec.Code, code)
		}
	}
}
