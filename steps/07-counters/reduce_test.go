package main

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/given/counters"
	"github.com/peakload/workshop/internal/given/events"
	"github.com/peakload/workshop/internal/given/metrics"
	"github.com/peakload/workshop/internal/given/writes"
	"github.com/peakload/workshop/internal/harness/bubble"
	bulk "github.com/peakload/workshop/solutions/06-buffered-writes"
)

// The service-free phase: Reduce against fakeMongo (fakemongo_test.go), the
// real driver and the real IncMany over a map in memory.

// callWrite calls write once, bounded and guarded: a write that panics or
// does not return is reported as such, not as a crash or a hang of the
// check.
func callWrite(write writes.WriteFunc, ctx context.Context, docs []bson.D) (retry []bson.D, err error, bad string) {
	type result struct {
		retry []bson.D
		err   error
		bad   string
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- result{bad: fmt.Sprintf("the write panicked: %v", p)}
			}
		}()
		r, e := write(ctx, slices.Clone(docs))
		done <- result{retry: r, err: e}
	}()
	// Observed, not timed: a write that has not returned while every
	// goroutine waits (twice, a pause apart), none on I/O, never will: the
	// fake database answers through channels. Against the real one, its
	// driver keeps a socket read going, so the minute, a watchdog, decides.
	for start, settled := time.Now(), 0; ; {
		select {
		case r := <-done:
			return r.retry, r.err, r.bad
		case <-time.After(time.Millisecond):
		}
		if settled = map[bool]int{true: settled + 1}[bubble.Quiet()]; settled == 2 {
			return nil, nil, "the write did not return, and every goroutine was waiting for something: a lock taken twice, or a wait nothing ends?"
		}
		if time.Since(start) > time.Minute {
			return nil, nil, "the write did not return within a minute of real time, nor did every goroutine wait: " +
				"the machine may be overloaded (no verdict on your code), or a loop spins"
		}
	}
}

// mustWrite is callWrite that fails t on a panic or a hang.
func mustWrite(t *testing.T, write writes.WriteFunc, ctx context.Context, docs []bson.D) ([]bson.D, error) {
	t.Helper()
	retry, err, bad := callWrite(write, ctx, docs)
	if bad != "" {
		t.Fatalf("a flush of %d increments: %s", len(docs), bad)
	}
	return retry, err
}

// idOf is counters.IDOf that survives an empty or malformed document.
func idOf(d bson.D) string {
	if len(d) == 0 {
		return "<empty document>"
	}
	if id, ok := d[0].Value.(string); ok && d[0].Key == "_id" {
		return id
	}
	return fmt.Sprintf("<not an increment: %v>", d)
}

// perID counts documents per counter id.
func perID(docs []bson.D) map[string]int64 {
	m := map[string]int64{}
	for _, d := range docs {
		m[idOf(d)]++
	}
	return m
}

// only keeps the entries of m whose id is in ids.
func only(m map[string]int64, ids map[string]bool) map[string]int64 {
	out := map[string]int64{}
	for id, n := range m {
		if ids[id] {
			out[id] = n
		}
	}
	return out
}

// show prints a per-id map in id order, at most 8 entries.
func show(m map[string]int64) string {
	ids := slices.Sorted(maps.Keys(m))
	var b strings.Builder
	for i, id := range ids {
		if i == 8 {
			fmt.Fprintf(&b, " … (%d ids)", len(ids))
			break
		}
		fmt.Fprintf(&b, " %s:%d", id, m[id])
	}
	return "{" + strings.TrimSpace(b.String()) + "}"
}

func persisted() float64 { return testutil.ToFloat64(metrics.EventsPersisted) }

// showTrips describes the update commands of a flush.
func showTrips(trips [][]events.Inc) string {
	var parts []string
	for _, t := range trips {
		ids := map[string]int64{}
		for _, in := range t {
			ids[in.ID] += in.N
		}
		parts = append(parts, fmt.Sprintf("%d updates over %d ids", len(t), len(ids)))
	}
	if len(parts) > 4 {
		parts = append(parts[:4], "…")
	}
	return strings.Join(parts, "; ")
}

// tripsHint says what the update commands of one flush suggest.
func tripsHint(trips [][]events.Inc) string {
	ids, updates := map[string]bool{}, 0
	for _, t := range trips {
		for _, in := range t {
			ids[in.ID] = true
			updates++
		}
	}
	if updates > len(ids) {
		return fmt.Sprintf("they held %d $inc for %d ids; count the requests per id first, one events.Inc each "+
			"(IncMany sends a repeated id in a command of its own)", updates, len(ids))
	}
	return "put every id's increment in one c.IncMany call"
}

// A flush is one round trip: one update command holding one $inc per
// distinct id, of that id's count in the batch.
func TestAFlushIsOneRoundTripOfOneIncPerID(t *testing.T) {
	c, f := newFakeCounters()
	docs, want := batchIDs("trip", 1000, 20)
	p := persisted()
	retry, err := mustWrite(t, Reduce(c), t.Context(), docs)
	if err != nil || len(retry) > 0 {
		t.Fatalf("a flush the database accepted whole: %v, %d to retry; want nil, 0", err, len(retry))
	}
	trips := f.roundTrips(0)
	if len(trips) != 1 {
		t.Fatalf("a flush of 1000 increments over 20 ids made %d update commands (%s), want 1: %s",
			len(trips), showTrips(trips), tripsHint(trips))
	}
	got := map[string]int64{}
	for _, in := range trips[0] {
		got[in.ID] += in.N
	}
	if len(trips[0]) != len(want) || !maps.Equal(got, want) {
		t.Fatalf("the flush's update command held %d $inc over %d ids, totals %s; want %d, one per id, of its count %s",
			len(trips[0]), len(got), show(got), len(want), show(want))
	}
	if n := persisted() - p; n != 1000 {
		t.Fatalf("a flush of 1000 increments added %v to metrics.EventsPersisted, want 1000 (one per request, not per id)", n)
	}
}

// One id whose write fails: the write returns exactly that id's requests
// (and an error), the others are persisted once; the retry then applies
// the failed id alone, and nothing is counted twice.
func TestAFailingIDIsRetriedAlone(t *testing.T) {
	c, f := newFakeCounters()
	write := Reduce(c)
	docs, want := batchIDs("partial", 1000, 20)
	failing := map[string]bool{}
	for _, id := range slices.Sorted(maps.Keys(want))[:3] {
		failing[id] = true
	}
	p := persisted()
	f.arm(false, false, failing)
	retry, err := mustWrite(t, write, t.Context(), docs)
	f.arm(false, false, nil)
	if err == nil {
		t.Fatalf("3 of 20 ids failed and the write returned no error (%d to retry): return IncMany's error", len(retry))
	}
	if got, w := perID(retry), only(want, failing); !maps.Equal(got, w) {
		t.Fatalf("3 of 20 ids failed (%s); the write returned %d documents to retry, per id %s; want exactly the requests of the failed ids, %s",
			strings.Join(slices.Sorted(maps.Keys(failing)), " "), len(retry), show(got), show(w))
	}
	applied := f.values()
	for id, n := range want {
		if !failing[id] && applied[id] != n {
			t.Fatalf("after the partial failure, counter %s (it succeeded) = %d, want %d", id, applied[id], n)
		}
	}
	if n, w := persisted()-p, float64(1000-len(retry)); n != w {
		t.Fatalf("a flush of which %d requests failed added %v to metrics.EventsPersisted, want %v", len(retry), n, w)
	}
	mark := f.mark()
	again, err := mustWrite(t, write, t.Context(), retry) // the batcher's retry
	if err != nil || len(again) > 0 {
		t.Fatalf("the retry, the database healthy: %v, %d to retry", err, len(again))
	}
	if trips := f.roundTrips(mark); len(trips) != 1 {
		t.Fatalf("the retry of 3 ids made %d update commands (%s), want 1: %s", len(trips), showTrips(trips), tripsHint(trips))
	}
	if got := f.values(); !maps.Equal(only(got, keys(want)), want) {
		t.Fatalf("after the retry the counters are %s, want %s: each increment applied once", show(only(got, keys(want))), show(want))
	}
	if n := persisted() - p; n != 1000 {
		t.Fatalf("1000 increments, 3 ids retried once: metrics.EventsPersisted grew by %v, want 1000", n)
	}
}

func keys(m map[string]int64) map[string]bool {
	s := map[string]bool{}
	for k := range m {
		s[k] = true
	}
	return s
}

// A write that fails whole returns every request, with the error, and
// counts none as persisted; its retry then applies each once.
func TestAWholeFailureReturnsEveryRequest(t *testing.T) {
	c, f := newFakeCounters()
	write := Reduce(c)
	docs, want := batchIDs("down", 500, 15)
	p := persisted()
	f.arm(true, false, nil)
	retry, err := mustWrite(t, write, t.Context(), docs)
	f.arm(false, false, nil)
	if err == nil {
		t.Fatalf("the database refused the whole command and the write returned no error (%d to retry): return IncMany's error", len(retry))
	}
	if got := perID(retry); !maps.Equal(got, want) {
		t.Fatalf("every id failed; the write returned %d documents to retry, per id %s; want all 500, %s",
			len(retry), show(got), show(want))
	}
	if n := persisted() - p; n != 0 {
		t.Fatalf("a write that failed whole added %v to metrics.EventsPersisted, want 0", n)
	}
	if again, err := mustWrite(t, write, t.Context(), retry); err != nil || len(again) > 0 {
		t.Fatalf("the retry: %v, %d to retry", err, len(again))
	}
	if got := only(f.values(), keys(want)); !maps.Equal(got, want) {
		t.Fatalf("after the retry the counters are %s, want %s", show(got), show(want))
	}
}

// A counter refused for good (its value a string) comes back in IncMany's
// error as events.Refused; the write must return that error as it is, so
// that writes.DeadLetter can dead-letter the refused requests.
func TestTheErrorNamesTheRefusedID(t *testing.T) {
	c, f := newFakeCounters()
	f.poison("poisoned")
	docs := []bson.D{counters.Doc("good"), counters.Doc("poisoned"), counters.Doc("good"), counters.Doc("poisoned")}
	retry, err := mustWrite(t, Reduce(c), t.Context(), docs)
	var refused events.Refused
	if !errors.As(err, &refused) || len(refused) == 0 {
		t.Fatalf("a counter refused for good: the write returned %v (%d to retry); want IncMany's error as it is "+
			"(wrapped with %%w at most): its events.Refused names the refused id", err, len(retry))
	}
	if got := perID(retry); !maps.Equal(got, map[string]int64{"poisoned": 2}) {
		t.Fatalf("a counter refused for good: the write returned %s to retry, want {poisoned:2}", show(got))
	}
}

// Two flushes through the same Reduce(c) add up: each counts its own batch.
func TestTwoFlushesAddUp(t *testing.T) {
	c, f := newFakeCounters()
	write := Reduce(c)
	first, want := batchIDs("twice", 300, 10)
	second, more := batchIDs("twice", 200, 10)
	for id, n := range more {
		want[id] += n
	}
	for i, docs := range [][]bson.D{first, second} {
		if retry, err := mustWrite(t, write, t.Context(), docs); err != nil || len(retry) > 0 {
			t.Fatalf("flush %d: %v, %d to retry", i+1, err, len(retry))
		}
	}
	if got := only(f.values(), keys(want)); !maps.Equal(got, want) {
		t.Fatalf("after two flushes through the same Reduce(c) the counters are %s, want %s: "+
			"count each batch afresh (a map made inside the returned func, not beside it)", show(got), show(want))
	}
}

// A flush whose acknowledgement is lost (the write got in, the batcher was
// told it failed) is retried; through counters.Idempotent, as main.go
// writes it, it is counted once. It holds only if Reduce hands its ctx on
// to IncMany: the batch's number travels in it.
func TestALostAcknowledgementIsCountedOnce(t *testing.T) {
	c, f := newFakeCounters()
	write := counters.Idempotent(Reduce(c))
	docs, want := batchIDs("lostack", 600, 12)
	f.arm(false, true, nil)
	retry, err := mustWrite(t, write, t.Context(), docs)
	f.arm(false, false, nil)
	if err == nil || len(retry) != len(docs) {
		t.Fatalf("a flush whose reply was lost: %v, %d of %d to retry; want an error and every request", err, len(retry), len(docs))
	}
	if again, err := mustWrite(t, write, t.Context(), retry); err != nil || len(again) > 0 {
		t.Fatalf("the retry: %v, %d to retry", err, len(again))
	}
	if got := only(f.values(), keys(want)); !maps.Equal(got, want) {
		t.Fatalf("a flush retried after a lost acknowledgement left the counters at %s, want %s: "+
			"call c.IncMany with the ctx your write was given (it carries the batch's number), not a new context",
			show(got), show(want))
	}
}

// Many clients increment many ids at once through step 6's batcher, as
// main.go wires it: after Close every counter equals its increments, and
// every one is counted persisted. Fake time (synctest): the flush interval
// passes at once.
func TestConcurrentIncrementsAcrossIDsAreExact(t *testing.T) {
	probe(t)
	synctest.Test(t, func(t *testing.T) {
		c, f := newFakeCounters()
		b := writes.Batch("reduce", BatchSize, Capacity, writes.FlushInterval, counters.Idempotent(guarded(t, Reduce(c))), bulk.Run)
		const clients, each, ids = 40, 150, 250
		p := persisted()
		var wg sync.WaitGroup
		var mu sync.Mutex
		want := map[string]int64{}
		for w := range clients {
			wg.Go(func() {
				for i := range each {
					id := fmt.Sprintf("c-%d", (w*7+i*i)%ids)
					if err := b.AddWait(t.Context(), counters.Doc(id)); err != nil {
						t.Errorf("AddWait: %v", err)
						return
					}
					mu.Lock()
					want[id]++
					mu.Unlock()
					if i%50 == 0 {
						time.Sleep(writes.FlushInterval / 3) // let the interval pass now and then
					}
				}
			})
		}
		wg.Wait()
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		defer cancel()
		if err := b.Close(ctx); err != nil {
			t.Fatalf("Close after %d increments: %v", clients*each, err)
		}
		if got := only(f.values(), keys(want)); !maps.Equal(got, want) {
			t.Fatalf("%d clients, %d increments over %d ids: %s",
				clients, clients*each, len(want), diff(got, want))
		}
		if n := persisted() - p; n != clients*each {
			t.Fatalf("%d increments persisted; metrics.EventsPersisted grew by %v", clients*each, n)
		}
	})
}

// guarded turns a panic of write into an error that retries nothing (so
// the batcher stops retrying) and a failure of t; so does a write asked
// for the 60th time (the database here never fails: a batch retried that
// often is retried for ever).
func guarded(t *testing.T, write writes.WriteFunc) writes.WriteFunc {
	var mu sync.Mutex
	calls := 0
	return func(ctx context.Context, docs []bson.D) (retry []bson.D, err error) {
		mu.Lock()
		calls++
		n := calls
		mu.Unlock()
		if n == 60 {
			t.Errorf("the batcher called the write 60 times, the database never failing: does it return documents to retry after a flush that succeeded?")
		}
		if n >= 60 {
			return nil, errors.New("the check stops the retries")
		}
		defer func() {
			if p := recover(); p != nil {
				t.Errorf("the write panicked on a batch of %d: %v", len(docs), p)
				retry, err = nil, fmt.Errorf("panic: %v", p)
			}
		}()
		return write(ctx, docs)
	}
}

// probe calls Reduce once outside any synctest bubble, so that a write that
// hangs fails t here instead of deadlocking the bubble.
func probe(t *testing.T) {
	t.Helper()
	c, _ := newFakeCounters()
	mustWrite(t, Reduce(c), t.Context(), []bson.D{counters.Doc("probe"), counters.Doc("probe")})
}

// diff says which counters differ from their increments.
func diff(got, want map[string]int64) string {
	var bad []string
	for _, id := range slices.Sorted(maps.Keys(want)) {
		if got[id] != want[id] {
			bad = append(bad, fmt.Sprintf("%s = %d, want %d", id, got[id], want[id]))
		}
	}
	sort.Strings(bad)
	if len(bad) > 5 {
		bad = append(bad[:5], fmt.Sprintf("… %d counters wrong", len(bad)))
	}
	return strings.Join(bad, "; ")
}

// Increments still in the batcher's buffer when it closes — fewer than a
// batch, before the interval — are written by Close, each once.
func TestNothingIsLostAcrossClose(t *testing.T) {
	probe(t)
	synctest.Test(t, func(t *testing.T) {
		c, f := newFakeCounters()
		b := writes.Batch("reduce", BatchSize, Capacity, writes.FlushInterval, counters.Idempotent(guarded(t, Reduce(c))), bulk.Run)
		want := map[string]int64{}
		for i := range 37 {
			id := fmt.Sprintf("close-%d", i%5)
			if err := b.Add(counters.Doc(id)); err != nil {
				t.Fatalf("Add: %v", err)
			}
			want[id]++
		}
		if err := b.Close(t.Context()); err != nil {
			t.Fatalf("Close: %v", err)
		}
		if got := only(f.values(), keys(want)); !maps.Equal(got, want) {
			t.Fatalf("37 increments buffered, then Close: %s", diff(got, want))
		}
	})
}
