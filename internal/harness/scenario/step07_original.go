package scenario

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/given/routes"
	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/load"
	"github.com/peakload/workshop/internal/harness/original"
	"github.com/peakload/workshop/internal/harness/result"
)

// Step 7 on the source's own stack (ORIGINAL=1): originals/b-express/
// counters.js, Express 5 and the MongoDB Node driver, with the same routes
// and the same hot-skewed likes as the Go rows, batching as
// express-counter.js does (5000 events or 1000 ms).
//
// The original exports no counters, so its rows count at MongoDB: each of
// its $inc also adds 1 to the counter's `writes` (the statements MongoDB
// applied), its batcher adds each flush to <collection>_flushes, and the
// row settles there — until the sum of the counters stops moving — before
// the bench stops the server. The driver counts what the server accepted:
// every 2xx answer, the warm-up's and the window's tail included.
const (
	expressCounters      = "counters_express" // counters.js's COUNTERS_COLLECTION
	expressCountersQuiet = 3 * time.Second    // no write for this long (3 batch intervals): settled
	expressCountersMax   = 3 * time.Minute
)

// countersProgram is the original all four rows run, one process per row.
var countersProgram = &original.Program{Runtime: original.Node, Script: "b-express/counters.js",
	Env: []string{"COUNTERS_COLLECTION=" + expressCounters, fmt.Sprintf("BATCH_SIZE=%d", authorCounterBatch)}}

// expressCounterRows are the original's rows: sync, async, bulk, reduce.
func expressCounterRows(env Env) []load.Variant {
	var rows []load.Variant
	for _, mode := range counterModes {
		route := counterRoutes[mode]
		v := load.Variant{Name: course.On(course.Express, mode), Route: routes.POST(route) + " (Express, Node)",
			Original: countersProgram}
		v.Direct = settledAtMongo(env, string(mode), load.Variant{Name: v.Name, Route: v.Route, Method: "POST",
			Prepare: counterRequest(env, routes.Prefix(route))})
		rows = append(rows, v)
	}
	return rows
}

// settledAtMongo drives http against the original (the bench started it
// at o.Target), then waits until its writes have landed and reads, at
// MongoDB, what they did.
func settledAtMongo(env Env, mode string, http load.Variant) func(ctx context.Context, o load.Options) (result.Run, error) {
	return func(ctx context.Context, o load.Options) (result.Run, error) {
		if env.Mongo == nil {
			return result.Run{}, errors.New(messages.T("scenario.no_mongo"))
		}
		db := env.Mongo.Client.Database("workshop")
		coll, flushes := db.Collection(expressCounters+"_"+mode), db.Collection(expressCounters+"_flushes")
		if err := coll.Drop(ctx); err != nil {
			return result.Run{}, fmt.Errorf("%s: empty the collection: %w", http.Name, err)
		}
		if _, err := flushes.DeleteOne(ctx, bson.D{{Key: "_id", Value: mode}}); err != nil {
			return result.Run{}, fmt.Errorf("%s: reset its flushes: %w", http.Name, err)
		}
		var sent, answered, accepted atomic.Int64
		prepare := http.Prepare
		http.Prepare = func(vu *load.VU, req *fasthttp.Request) { sent.Add(1); prepare(vu, req) }
		http.Check = func(vu *load.VU, resp *fasthttp.Response) error {
			answered.Add(1)
			if resp.StatusCode() < 300 {
				accepted.Add(1)
			}
			return honourRetryAfter(vu, resp)
		}
		o.Warmup = 0 // every accepted event must be in the count
		cpu0 := env.servicesCPU()
		r, err := load.Drive(ctx, o, http, func(string) {})
		if err != nil {
			return r, err
		}
		start := time.Now()
		got, settled, err := settleCounters(ctx, coll, flushes, mode, accepted.Load())
		if err != nil {
			return r, fmt.Errorf("%s: %w", http.Name, err)
		}
		extraS := settled.Sub(start).Seconds()
		r.Tool = "go"
		r.Extra = map[result.Key]float64{result.Accepted: float64(accepted.Load()), result.Persisted: float64(got.value),
			result.DBWritesTotal: float64(got.writes), result.Batches: float64(got.batches), result.AdditionalS: extraS,
			result.MaxWritesPerCounter: float64(got.maxWrites),
			result.PersistedPerS:       float64(got.value) / (r.DurationS + extraS), result.AcceptedPerS: float64(accepted.Load()) / r.DurationS}
		if err := expectDistinct(ctx, env, flushes, mode, &r); err != nil {
			return r, fmt.Errorf("%s: %w", http.Name, err)
		}
		if n := accepted.Load(); n > 0 {
			r.Extra[result.DBWritesPerReq] = float64(got.writes) / float64(n)
		}
		if lost := sent.Load() - answered.Load(); lost > 0 {
			r.Extra[result.Unanswered] = float64(lost) // cut at the window's end: outcome unknown
		}
		dbCPU(&r, env, cpu0, r.DurationS+extraS, got.value)
		return r, nil
	}
}

// expectDistinct records, for a batching row, the events its batches
// held and the distinct ids our workload's skew puts in batches of those
// sizes (Σ of each batch's expectation, our arithmetic): reduce should
// write about that many times.
func expectDistinct(ctx context.Context, env Env, flushes *mongo.Collection, mode string, r *result.Run) error {
	sizes, err := flushedBatches(ctx, flushes, mode)
	if err != nil || len(sizes) == 0 {
		return err
	}
	var events int64
	var distinct float64
	for _, n := range sizes {
		events += n
		distinct += expectedDistinct(env, int(n), false)
	}
	r.Extra[result.BatchedEvents], r.Extra[result.DistinctExpected] = float64(events), distinct
	return nil
}

// counterTally is what a collection of counters holds: the increments
// (Σ value), the statements that applied them (Σ writes), the most
// statements one counter took, and the batches the server says it flushed.
type counterTally struct{ value, writes, maxWrites, batches int64 }

// settleCounters polls the counters until they hold accepted increments,
// or until nothing has changed for expressCountersQuiet (a write the
// database lost, or refused, never lands), and returns the last tally and
// when it last changed: the end of the writes.
func settleCounters(ctx context.Context, coll, flushes *mongo.Collection, mode string, accepted int64) (counterTally, time.Time, error) {
	deadline := time.Now().Add(expressCountersMax)
	var last counterTally
	moved := time.Now()
	for {
		// A wedged FerretDB answers nothing: a reading that hangs is an
		// error naming it, not a bench that never ends.
		rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		t, err := counterSum(rctx, coll)
		if err != nil {
			cancel()
			return t, moved, err
		}
		sizes, err := flushedBatches(rctx, flushes, mode)
		cancel()
		if err != nil {
			return t, moved, err
		}
		t.batches = int64(len(sizes))
		if t != last {
			last, moved = t, time.Now()
		}
		switch {
		case t.value >= accepted && time.Since(moved) >= 2*time.Second: // the batcher's last flush log has landed too
			return t, moved, nil
		case time.Since(moved) >= expressCountersQuiet:
			return t, moved, nil // the rest will never land: persisted < accepted says so
		case time.Now().After(deadline):
			return t, moved, errors.New(messages.T("scenario.still_moving", t.value, accepted, expressCountersMax))
		}
		select {
		case <-ctx.Done():
			return t, moved, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// flushedBatches is the size of every batch the original says it
// flushed for mode (none for sync and async).
func flushedBatches(ctx context.Context, flushes *mongo.Collection, mode string) ([]int64, error) {
	var f struct{ Sizes []int64 }
	if err := flushes.FindOne(ctx, bson.D{{Key: "_id", Value: mode}}).Decode(&f); err != nil && !errors.Is(err, mongo.ErrNoDocuments) {
		return nil, fmt.Errorf("read its flushes: %w", err)
	}
	return f.Sizes, nil
}

// counterSum reads a counter collection's tally.
func counterSum(ctx context.Context, coll *mongo.Collection) (counterTally, error) {
	var t counterTally
	cur, err := coll.Find(ctx, bson.D{})
	if err != nil {
		return t, fmt.Errorf("sum the counters: %w", err)
	}
	defer cur.Close(ctx)
	for cur.Next(ctx) {
		// A document whose value is not a number is no counter of a bench
		// (a check's poisoned id, left in the same database): it cannot
		// move, so it is left out of both readings.
		value, ok := cur.Current.Lookup("value").AsInt64OK()
		if !ok {
			continue
		}
		writes, _ := cur.Current.Lookup("writes").AsInt64OK()
		t.value, t.writes, t.maxWrites = t.value+value, t.writes+writes, max(t.maxWrites, writes)
	}
	return t, cur.Err()
}

// skippedOriginal withholds c, a claim on the source's stack, when one of
// its rows did not run (Node.js or the packages missing: the notes say),
// and says whether it did.
func skippedOriginal(c *result.Claim, r *result.Result, rows ...course.Variant) bool {
	for _, v := range rows {
		if find(r, v) == nil {
			c.Unjudge("the rows of the source's stack (%s) did not run; the notes say why",
				"các hàng của stack gốc (%s) không chạy; phần ghi chú nói lý do", v)
			return true
		}
	}
	return false
}

// expressReduceClaim: B9 on the source's stack, here. Counted at MongoDB
// (each $inc adds 1 to its counter's writes): bulk applies one statement
// per event, reduce at most one per counter per batch, and bulk ÷ reduce
// is, within B9's band, what our workload implies for the batches the
// original flushed (express-counter.js's 5000 events or 1000 ms, whichever
// comes first: their sizes vary, so each batch's expectation is summed).
func expressReduceClaim(r *result.Result, env Env) result.Claim {
	c := result.Claim{ID: "B9-express", Measured: "not measured", Source: b9Source,
		Article: "[" + result.SourcesStack + "Express 5 on Node, the MongoDB Node driver, batches of 5000 events or 1000 ms as express-counter.js] " +
			"bulkWrite applies one $inc per event, reduce-before-write one per distinct id in a batch — counted at MongoDB, not by the server",
		Vi: result.ClaimLines{
			Text: "[trên stack gốc của bài viết, chạy tại đây: Express 5 trên Node, MongoDB Node driver, lô 5000 event hoặc 1000 ms như express-counter.js] " +
				"bulkWrite ghi mỗi event một $inc, reduce-before-write mỗi id khác nhau trong lô một $inc — đếm tại MongoDB, không phải do server tự khai",
		}}
	c.Tolerate("as B9: DB writes per event, bulk ÷ reduce, %s× what our workload implies for the original's batches; bulk one write per event, reduce at most one per counter per batch",
		"như B9: số lần ghi DB mỗi event, bulk ÷ reduce, %s× con số workload của workshop suy ra cho các lô của bản gốc; bulk mỗi event một lần ghi, reduce mỗi counter tối đa một lần mỗi lô",
		impliedCut.Dash())
	b, rd := find(r, course.On(course.Express, course.Bulk)), find(r, course.On(course.Express, course.Reduce))
	if skippedOriginal(&c, r, course.On(course.Express, course.Bulk), course.On(course.Express, course.Reduce)) {
		return c
	}
	// Per event applied, not accepted: an increment FerretDB loses takes
	// its write with it (B9-express-persisted counts those).
	perApplied := func(x *result.Run) float64 {
		return extra(x, result.DBWritesTotal) / max(extra(x, result.Persisted), 1)
	}
	bw, rw, batches := perApplied(b), perApplied(rd), extra(rd, result.Batches)
	if rw == 0 || batches == 0 || extra(rd, result.DistinctExpected) == 0 {
		return c
	}
	mean := extra(rd, result.BatchedEvents) / batches
	want := extra(rd, result.BatchedEvents) / extra(rd, result.DistinctExpected)
	x := bw / rw
	c.Measure("writes per event applied, at MongoDB: bulk %.3f, reduce %.4f (÷ %.1f, implied ÷ %.1f by the sizes of its %.0f batches, %.0f events on average); the most writes one counter took in reduce: %.0f",
		"số lần ghi thực sự vào MongoDB mỗi event: bulk %.3f, reduce %.4f (÷ %.1f, suy ra ÷ %.1f từ cỡ của %.0f lô, trung bình %.0f event); counter bị ghi nhiều nhất trong reduce: %.0f lần",
		bw, rw, x, want, batches, mean, extra(rd, result.MaxWritesPerCounter))
	ok := want > 0 && impliedCut.HoldsFor(x, want) && bw == 1 && extra(rd, result.MaxWritesPerCounter) <= batches && b.Errors == 0 && rd.Errors == 0
	c.Reproduced = result.Verdict(ok)
	return c
}

// expressPersistedClaim: the write path's rule on the source's stack —
// every increment the original accepted (a 2xx) is in MongoDB once the
// writes settle: Σ value == accepted, per row. express-counter.js does
// not retry a failed write, so a lost one shows here.
func expressPersistedClaim(r *result.Result) result.Claim {
	c := result.Claim{ID: "B9-express-persisted", Measured: "not measured",
		Source:    result.Ours("the workshop's rule for a write path (accepted = persisted), asked of express-counter.js's method at " + countersCommit),
		Article:   "[" + result.SourcesStack + "Express 5 on Node] every like answered 2xx by sync, async, bulk and reduce is counted in MongoDB once the writes settle",
		Tolerance: "exact: each 2xx the driver received is one increment in the row's counters at MongoDB (requests cut at the window's end may add at most their number)",
		Vi: result.ClaimLines{
			Text:      "[trên stack gốc của bài viết, chạy tại đây: Express 5 trên Node] mỗi lượt like được sync, async, bulk và reduce trả 2xx đều có trong MongoDB sau khi việc ghi đã xong hết",
			Tolerance: "chính xác: mỗi 2xx driver nhận được là đúng một lần cộng vào các counter của hàng tại MongoDB (các request bị cắt ngang ở cuối khung đo có thể cộng thêm, nhưng không quá số request đó)",
		}}
	rows := make([]course.Variant, len(counterModes))
	for i, m := range counterModes {
		rows[i] = course.On(course.Express, m)
	}
	if skippedOriginal(&c, r, rows...) {
		return c
	}
	// Data table: B9-persisted's measured line (step07.go) said of the
	// source's stack. Requests cut at the window's end (unanswered) may
	// have landed too.
	parts, partsVi, ok := keptAtMongo(r, rows, func(x *result.Run) (float64, float64) { return extra(x, result.Accepted), extra(x, result.Unanswered) })
	c.Measure("persisted at MongoDB of accepted: %s", "số ghi xuống MongoDB trên số đã nhận: %s", parts)
	c.Vi.Measured = "số ghi xuống MongoDB trên số đã nhận: " + partsVi
	if !ok && strings.Contains(r.Machine.Mongo, "FerretDB") {
		c.MeasureMore("; on FerretDB 1.x, $inc from concurrent requests on one counter can be lost (it reads, then writes the document): run it against a real mongod to judge Express",
			"; trên FerretDB 1.x, $inc từ các request đồng thời vào cùng một counter có thể bị mất (nó đọc rồi mới ghi document): muốn kết luận cho Express thì chạy với mongod thật")
	}
	c.Reproduced = result.Verdict(ok)
	return c
}

// keptAtMongo says, for each row, how many increments MongoDB holds
// (persisted: the increase of the sum of its counters, counted there on
// both stacks) of those it should (want: the Express rows' 2xx answers,
// the Go rows' acknowledged writes), and the lost ones; ok when every row
// wanted some and holds them all, and at most slack more.
func keptAtMongo(r *result.Result, rows []course.Variant, want func(x *result.Run) (n, slack float64)) (en, vi string, ok bool) {
	var parts, partsVi []string
	ok = true
	for _, v := range rows {
		x := find(r, v)
		of, slack := want(x)
		per := extra(x, result.Persisted)
		parts = append(parts, fmt.Sprintf("%s %.0f of %.0f", v, per, of))
		partsVi = append(partsVi, fmt.Sprintf("%s %.0f trên %.0f", v, per, of))
		if lost := of - per; lost > 0 {
			parts[len(parts)-1] += fmt.Sprintf(" (lost %.0f)", lost)
			partsVi[len(partsVi)-1] += fmt.Sprintf(" (mất %.0f)", lost)
		}
		ok = ok && of > 0 && per >= of && per <= of+slack
	}
	return strings.Join(parts, ", "), strings.Join(partsVi, ", "), ok
}
