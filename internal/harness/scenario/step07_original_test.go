package scenario

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/result"

	"github.com/peakload/workshop/internal/harness/stacktest/mongotest"
)

// counters.js, step 7 on Express: its routes answer as the Go server's,
// and MongoDB holds what they accepted — bulk one statement per event,
// reduce one per counter per batch, everything flushed on SIGTERM. Every
// count is read at MongoDB. Requests are sent so that no two writes race
// on one counter: FerretDB 1.x can lose such increments, whoever sends them.
func TestOriginalExpressCounters(t *testing.T) {
	store := mongotest.Store(t)
	prefix := fmt.Sprintf("test_counters_express_%d", time.Now().UnixNano())
	db := store.Client.Database("workshop")
	t.Cleanup(func() {
		for _, c := range []string{"sync", "async", "bulk", "reduce", "flushes"} {
			_ = db.Collection(prefix + "_" + c).Drop(context.Background())
		}
	})
	// A batch is exactly 30 events (one burst); the timer never fires in
	// the test, so what is left when it ends waits for SIGTERM.
	url, stop := runOriginal(t, *countersProgram, "COUNTERS_COLLECTION="+prefix, "BATCH_SIZE=30", "BATCH_INTERVAL_MS=600000")
	tally := func(mode string) counterTally {
		t.Helper()
		got, err := counterSum(t.Context(), db.Collection(prefix+"_"+mode))
		if err != nil {
			t.Fatal(err)
		}
		sizes, err := flushedBatches(t.Context(), db.Collection(prefix+"_flushes"), mode)
		if err != nil {
			t.Fatal(err)
		}
		got.batches = int64(len(sizes))
		return got
	}

	expect(t, "POST", url+"/counters/sync/bad%20id", "", 400)
	expect(t, "POST", url+"/counters/nope/likes-1", "", 404)
	if body := expect(t, "POST", url+"/counters/sync/likes-1", "", 201); body != `{"ok":true}` {
		t.Fatalf("sync answered %q, want {\"ok\":true} as the Go server", body)
	}
	for i := range 9 {
		expect(t, "POST", url+fmt.Sprintf("/counters/sync/likes-%d", i%2), "", 201)
	}
	if got := tally("sync"); got.value != 10 || got.writes != 10 {
		t.Fatalf("sync: MongoDB holds %d increments in %d writes after 10 answered 201, want 10 in 10", got.value, got.writes)
	}
	for i := range 10 { // distinct ids: the writes are not awaited, and must not race
		expect(t, "POST", url+fmt.Sprintf("/counters/async/likes-%d", i), "", 202)
	}

	// Three bursts of 30 over 5 ids: three batches.
	for burst := 1; burst <= 3; burst++ {
		for _, mode := range []string{"bulk", "reduce"} {
			var wg sync.WaitGroup
			for i := range 30 {
				wg.Go(func() { expect(t, "POST", url+fmt.Sprintf("/counters/%s/likes-%d", mode, i%5), "", 202) })
			}
			wg.Wait()
			waitFor(t, func() bool { return tally(mode).batches == int64(burst) }, "%s's batch %d to be flushed", mode, burst)
		}
	}
	if got := tally("bulk"); got.value != 90 || got.writes != 90 {
		t.Fatalf("bulk: %d increments in %d writes at MongoDB, want 90 in 90 (one $inc per event)", got.value, got.writes)
	}
	if got := tally("reduce"); got.value != 90 || got.writes != 15 || got.maxWrites != 3 {
		t.Fatalf("reduce: %d increments in %d writes (at most %d on one counter) at MongoDB, want 90 in 15 (one $inc per id per batch: 5 ids × 3 batches)", got.value, got.writes, got.maxWrites)
	}

	// Less than a batch, then SIGTERM: the server must write it before exiting.
	for i := range 7 {
		expect(t, "POST", url+fmt.Sprintf("/counters/bulk/tail-%d", i), "", 202)
		expect(t, "POST", url+fmt.Sprintf("/counters/reduce/tail-%d", i%2), "", 202)
	}
	log := stop()
	for mode, want := range map[string]counterTally{"async": {value: 10, writes: 10}, "bulk": {value: 97, writes: 97}, "reduce": {value: 97, writes: 17}} {
		if got := tally(mode); got.value != want.value || got.writes != want.writes {
			t.Errorf("%s after SIGTERM: %d increments in %d writes at MongoDB, want %d in %d: the shutdown lost what it held\n%s", mode, got.value, got.writes, want.value, want.writes, log)
		}
	}
}

// waitFor polls cond: a condition the test observes, with a generous watchdog.
func waitFor(t *testing.T, cond func() bool, what string, args ...any) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); !cond(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for "+what+" (the machine may be overloaded)", args...)
		}
	}
}

// The Express claims follow the figures counted at MongoDB, both ways, and
// are not judged when the original's rows did not run.
func TestExpressCounterClaims(t *testing.T) {
	env := Env{Params: params.Load()}
	d := expectedDistinct(env, 700, false)
	row := func(mode course.Variant, x map[result.Key]float64) result.Run {
		return result.Run{Variant: course.On(course.Express, mode), Requests: 1400, DurationS: 2, Extra: x}
	}
	runs := func(reduceWrites, bulkLost float64) *result.Result {
		return &result.Result{Machine: result.Machine{Mongo: "FerretDB 1.24 on PostgreSQL"}, Runs: []result.Run{
			row(course.Sync, map[result.Key]float64{result.Accepted: 300, result.Persisted: 300, result.DBWritesPerReq: 1}),
			row(course.Async, map[result.Key]float64{result.Accepted: 40, result.Persisted: 120, result.Unanswered: 100}),
			row(course.Bulk, map[result.Key]float64{result.Accepted: 1400, result.Persisted: 1400 - bulkLost, result.DBWritesTotal: 1400 - bulkLost}),
			row(course.Reduce, map[result.Key]float64{result.Accepted: 1400, result.Persisted: 1400, result.DBWritesTotal: reduceWrites, result.Batches: 2,
				result.BatchedEvents: 1400, result.DistinctExpected: 2 * d, result.MaxWritesPerCounter: 2}),
		}}
	}
	for _, tc := range []struct {
		name         string
		r            *result.Result
		reduce, kept string
	}{
		{"as implied, nothing lost", runs(2*d, 0), "reproduced", "reproduced"},
		{"reduce writes per event", runs(1400, 0), "not reproduced", "reproduced"},
		{"bulk lost 30 increments", runs(2*d, 30), "reproduced", "not reproduced"},
		{"rows skipped", &result.Result{}, "not judged", "not judged"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b9, kept := expressReduceClaim(tc.r, env), expressPersistedClaim(tc.r)
			if got := verdictWord(b9); got != tc.reduce {
				t.Errorf("B9-express: %s (%s), want %s", got, b9.Measured, tc.reduce)
			}
			if got := verdictWord(kept); got != tc.kept {
				t.Errorf("B9-express-persisted: %s (%s), want %s", got, kept.Measured, tc.kept)
			}
			if tc.kept == "not reproduced" && !strings.Contains(kept.Measured, "FerretDB") {
				t.Errorf("B9-express-persisted on FerretDB does not name the store's lost updates: %s", kept.Measured)
			}
		})
	}
}

// The Go rows' claims judge by what MongoDB holds: B9-persisted per row,
// B9 on its bulk and reduce rows; rows recorded before they counted there
// (no acknowledged) are not judged by B9-persisted and leave B9 as it was.
func TestGoCounterClaimsJudgeByMongo(t *testing.T) {
	env := Env{Params: params.Load()}
	runs := func(reduceHeld float64, counted bool) *result.Result {
		r := &result.Result{Runs: []result.Run{
			{Variant: "raw-inc-bulk", Extra: map[result.Key]float64{result.DBWritesPerReq: 1}},
			{Variant: "raw-inc-reduce", Extra: map[result.Key]float64{result.DBWritesPerReq: 1 / implied(env, authorCounterBatch, true)}},
		}}
		for _, m := range counterModes {
			x := map[result.Key]float64{result.Persisted: 1000, result.DBWritesPerReq: 1}
			if m == course.Reduce {
				x[result.Persisted], x[result.DBWritesPerReq] = reduceHeld, 1/implied(env, ourCounterBatch, false)
			}
			if counted {
				x[result.Acknowledged] = 1000
				if l := 1000 - x[result.Persisted]; l > 0 {
					x[result.LostAcknowledged] = l
				}
			}
			r.Runs = append(r.Runs, result.Run{Variant: m, Extra: x})
		}
		return r
	}
	for _, tc := range []struct {
		name      string
		r         *result.Result
		b9, held  string
		measuredS string
	}{
		{"all held", runs(1000, true), "reproduced", "reproduced", "reduce 1000 of 1000"},
		{"reduce lost 40", runs(960, true), "not reproduced", "not reproduced", "reduce 960 of 1000 (lost 40)"},
		{"recorded before", runs(960, false), "reproduced", "not judged", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b9, held := reduceClaim(tc.r, env), persistedClaim(tc.r)
			if got := verdictWord(b9); got != tc.b9 {
				t.Errorf("B9: %s (%s), want %s", got, b9.Measured, tc.b9)
			}
			if got := verdictWord(held); got != tc.held || !strings.Contains(held.Measured, tc.measuredS) {
				t.Errorf("B9-persisted: %s (%s), want %s, reading %q", got, held.Measured, tc.held, tc.measuredS)
			}
			if tc.b9 == "not reproduced" && !strings.Contains(b9.Measured, "reduce: MongoDB lost 40 increments the server acknowledged") {
				t.Errorf("B9 does not say what MongoDB lost: %s", b9.Measured)
			}
		})
	}
}

// verdictWord is a claim's verdict in one word, withheld and missing ones
// told apart, for the tables of these tests.
func verdictWord(c result.Claim) string {
	switch {
	case c.Withheld():
		return "not judged"
	case c.Reproduced == nil:
		return "none"
	case *c.Reproduced:
		return "reproduced"
	}
	return "not reproduced"
}
