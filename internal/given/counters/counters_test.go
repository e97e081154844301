package counters_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/given/counters"
	"github.com/peakload/workshop/internal/given/events"
	"github.com/peakload/workshop/internal/given/writes"
	"github.com/peakload/workshop/internal/harness/stacktest/mongotest"
)

// lostAck makes the first write's acknowledgement get lost after the write
// itself got in — what a database killed mid-bulkWrite, or a connection
// reset, does to the writer: it cannot tell, and must retry.
func lostAck(write writes.WriteFunc) writes.WriteFunc {
	lost := false
	return func(ctx context.Context, docs []bson.D) ([]bson.D, error) {
		retry, err := write(ctx, docs)
		if err == nil && !lost {
			lost = true
			return docs, errors.New("connection reset by peer: the write's outcome is unknown")
		}
		return retry, err
	}
}

// cutShort makes the first write die halfway: the increments of the first
// ids get in, the rest do not, and the writer is told it failed (the
// database killed mid-bulkWrite). Docs must be sorted by id.
func cutShort(write writes.WriteFunc) writes.WriteFunc {
	cut := false
	return func(ctx context.Context, docs []bson.D) ([]bson.D, error) {
		if !cut {
			cut = true
			if _, err := write(ctx, docs[:len(docs)/2]); err != nil {
				return docs, err
			}
			return docs, errors.New("connection(127.0.0.1:27017) socket was unexpectedly closed: EOF")
		}
		return write(ctx, docs)
	}
}

// perID is a reduced write: one increment per distinct id (step 7's Reduce).
func perID(c *events.Counters) writes.WriteFunc {
	return func(ctx context.Context, docs []bson.D) ([]bson.D, error) {
		n := map[string]int64{}
		var ids []string
		for _, d := range docs {
			id := counters.IDOf(d)
			if n[id] == 0 {
				ids = append(ids, id)
			}
			n[id]++
		}
		incs := make([]events.Inc, len(ids))
		for i, id := range ids {
			incs[i] = events.Inc{ID: id, N: n[id]}
		}
		failed, err := c.IncMany(ctx, incs)
		var retry []bson.D
		for _, i := range failed {
			for _, d := range docs {
				if counters.IDOf(d) == incs[i].ID {
					retry = append(retry, d)
				}
			}
		}
		return retry, err
	}
}

// A batch whose acknowledgement is lost is retried by writes.Persist; with
// Idempotent every counter ends exact, also one that existed before (no
// applied field) and across consecutive batches and a second writer.
// Without it — the mutant the guard exists for — the retry counts twice.
func TestARetryAfterALostAcknowledgementCountsOnce(t *testing.T) {
	c := mongotest.Store(t).Counters().Variant("idempotent")
	run := fmt.Sprintf("t%d", time.Now().UnixNano())
	id := func(i int) string { return fmt.Sprintf("%s-%d", run, i) }
	if err := c.IncOne(t.Context(), id(0), 5); err != nil { // a counter written before, by no batch
		t.Fatal(err)
	}
	var docs []bson.D
	want := map[string]int64{id(0): 5}
	for i := range 60 {
		docs = append(docs, counters.Doc(id(i%4)))
		want[id(i%4)]++
	}
	check := func(t *testing.T, want map[string]int64) bool {
		t.Helper()
		exact := true
		for k, n := range want {
			got, err := c.Value(t.Context(), k)
			if err != nil {
				t.Fatal(err)
			}
			if got != n {
				t.Logf("counter %s = %d, want %d", k, got, n)
				exact = false
			}
		}
		return exact
	}

	t.Run("unguarded retry counts twice (the mutant)", func(t *testing.T) {
		c := c.Variant("unguarded")
		writes.Persist(lostAck(perID(c)), docs)
		if got, _ := c.Value(t.Context(), id(1)); got != 2*15 {
			t.Fatalf("counter = %d after an unguarded retry, want %d (applied twice): this test cannot tell a guard from none", got, 2*15)
		}
	})

	guarded := counters.Idempotent(lostAck(perID(c)))
	writes.Persist(guarded, docs)
	if !check(t, want) {
		t.Fatal("a batch retried after a lost acknowledgement was applied twice: the guard (applied.<writer> < batch) did not hold")
	}
	writes.Persist(guarded, docs) // the next batch: a new number, applied in full
	for k := range 4 {
		want[id(k)] += 15
	}
	if !check(t, want) {
		t.Fatal("the batch after a retried one was not applied in full: its number must move on")
	}
	writes.Persist(counters.Idempotent(perID(c)), docs) // another writer (a restarted server): its own numbers
	for k := range 4 {
		want[id(k)] += 15
	}
	if !check(t, want) {
		t.Fatal("a second writer's first batch was skipped: the guard must be per writer")
	}
}

// A batch cut short by a crash is retried in full: the counters it reached
// are skipped, the others get their increment. (FerretDB 1.24 stops an
// unordered update command at its first duplicate key, silently: the
// updates after it must be sent again.)
func TestARetryAfterACrashMidBatchCountsOnce(t *testing.T) {
	c := mongotest.Store(t).Counters().Variant("idempotent")
	run := fmt.Sprintf("t%d", time.Now().UnixNano())
	var docs []bson.D
	want := map[string]int64{}
	for i := range 8 {
		for range 3 {
			id := fmt.Sprintf("%s-%d", run, i)
			docs = append(docs, counters.Doc(id))
			want[id]++
		}
	}
	writes.Persist(counters.Idempotent(cutShort(perID(c))), docs)
	for id, n := range want {
		if got, err := c.Value(t.Context(), id); err != nil || got != n {
			t.Errorf("counter %s = %d (%v), want %d: the retry of a batch cut short must skip what got in and apply the rest", id, got, err, n)
		}
	}
}

// Per-request increments (an id repeated in a batch) cannot be guarded by
// one number per batch: IncMany writes them unguarded, all of them.
func TestRepeatedIDsAreAllApplied(t *testing.T) {
	c := mongotest.Store(t).Counters().Variant("idempotent")
	counter := fmt.Sprintf("t%d-repeated", time.Now().UnixNano())
	docs := []bson.D{counters.Doc(counter), counters.Doc(counter), counters.Doc(counter)}
	writes.Persist(counters.Idempotent(counters.PerRequest(c)), docs)
	if got, err := c.Value(t.Context(), counter); err != nil || got != 3 {
		t.Fatalf("counter = %d (%v) after 3 per-request increments in one guarded batch, want 3", got, err)
	}
}

// A counter that already holds the batch answers a duplicate key even
// without the lookup of a retry; FerretDB 1.24 then drops the rest of the
// command without a word, so IncMany must send the rest again.
func TestTheUpdatesAfterADuplicateAreApplied(t *testing.T) {
	c := mongotest.Store(t).Counters().Variant("idempotent")
	run := fmt.Sprintf("t%d", time.Now().UnixNano())
	b := events.Batch{Writer: "w" + run, Seq: 1}
	ctx := events.WithBatch(t.Context(), b)
	if _, err := c.IncMany(ctx, []events.Inc{{ID: run + "-b", N: 1}, {ID: run + "-c", N: 1}}); err != nil {
		t.Fatal(err) // b and c hold batch 1
	}
	if _, err := c.IncMany(events.WithBatch(t.Context(), events.Batch{Writer: b.Writer, Seq: 0}), []events.Inc{{ID: run + "-d", N: 1}}); err != nil {
		t.Fatal(err) // d holds an older batch
	}
	failed, err := c.IncMany(ctx, []events.Inc{{ID: run + "-a", N: 1}, {ID: run + "-b", N: 1}, {ID: run + "-c", N: 1}, {ID: run + "-d", N: 1}, {ID: run + "-e", N: 1}})
	if err != nil || len(failed) > 0 {
		t.Fatalf("IncMany: %v, failed %v", err, failed)
	}
	for id, want := range map[string]int64{"a": 1, "b": 1, "c": 1, "d": 2, "e": 1} {
		if got, err := c.Value(t.Context(), run+"-"+id); err != nil || got != want {
			t.Errorf("counter %s = %d (%v), want %d", id, got, err, want)
		}
	}
}
