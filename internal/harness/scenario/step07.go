package scenario

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/valyala/fasthttp"

	"github.com/peakload/workshop/internal/given/events"
	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/given/routes"
	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/load"
	"github.com/peakload/workshop/internal/harness/result"
)

// The author's counters came after the README's table, in commit
// countersCommit (2023-05-06): express-counter.js batches 5000 events or
// 1000 ms (its default; .env.example sets 3000) and writes a batch either
// as one $inc per event (bulkWrite, ordered:false) or reduced (countBy, one
// $inc of the count per id); k6_scripts/increase.js draws ids uniform over
// 0–999. raw-increase.js, on the database alone, writes one at a time or
// reduced in batches of 1000: it has no one-$inc-per-event bulkWrite.
const (
	countersCommit     = "ba1953e"
	authorCounterIDs   = 1000
	authorCounterBatch = 5000
	authorEnvBatch     = 3000
	ourCounterBatch    = 1000 // steps/07-counters/main.go BatchSize
)

// Step 7: likes on the live streams. First the database alone on the
// author's workload (raw rows, no HTTP: $inc one at a time, a bulkWrite of
// one $inc per event, and reduce), then 100 VUs increment the counter of a
// stream drawn by the same hot skew as the reads (Zipf over the 100 live
// streams) through each variant; every variant then settles until all
// accepted increments are applied.
func init() {
	register(7, Step{
		VUs: 100,
		Variants: func(env Env) []load.Variant {
			v := func(name course.Variant) load.Variant { return counterVariant(env, name, counterRoutes[name]) }
			// One bulkWrite of the author's 5000 takes 25–40 s on FerretDB: a
			// QUICK smoke run writes a tenth (its writes per event are 1 either way).
			bulkBatch := authorCounterBatch
			if env.Quick {
				bulkBatch /= 10
			}
			rows := []load.Variant{
				{Name: course.RawIncSeq, Route: "$inc upsert, one at a time, ids uniform over 0–999", Direct: rawCounters(env, "raw_seq", 1, false)},
				{Name: course.RawIncBulk, Route: fmt.Sprintf("bulkWrite of one $inc per event ×%d, ids uniform over 0–999", bulkBatch), Direct: rawCounters(env, "raw_bulk", bulkBatch, false)},
				{Name: course.RawIncReduce, Route: fmt.Sprintf("count per id, one $inc per id per %d events, ids uniform over 0–999", authorCounterBatch), Direct: rawCounters(env, "raw_reduce", authorCounterBatch, true)},
				v(course.Sync), v(course.Async), v(course.Bulk), v(course.Reduce),
			}
			if env.Original {
				rows = append(rows, expressCounterRows(env)...)
			}
			return rows
		},
		Claims: func(r *result.Result, env Env) []result.Claim {
			lostNotes(r)
			claims := []result.Claim{reduceClaim(r, env), persistedClaim(r)}
			if judgedOnBoth(r, env, 7) {
				claims = append(claims, expressReduceClaim(r, env), expressPersistedClaim(r))
			}
			return claims
		},
		Ours:       step7Ours,
		Rewards:    []string{"B9"}, // DB writes per event, bulk ÷ reduce
		KeepOnBusy: []string{"B9", "B9-persisted"},
	})
}

// counterVariant is a Go row: POST /counters/<name>/:id, settled, then
// counted at MongoDB (countersApplied): the server's own count of its
// writes is only what it acknowledged.
func counterVariant(env Env, name course.Variant, route string) load.Variant {
	return load.Variant{Name: name, Route: routes.POST(route), Method: "POST",
		Prepare: counterRequest(env, routes.Prefix(route)), Check: honourRetryAfter, Settle: true,
		Applied: countersApplied(env, name), DatabaseCPU: env.ServicesCPU}
}

// counterRoutes are the server's route for each way of counting (the
// source's original, Express, serves the same paths).
var counterRoutes = map[course.Variant]string{
	course.Sync: routes.CountersSync, course.Async: routes.CountersAsync, course.Bulk: routes.CountersBulk, course.Reduce: routes.CountersReduce,
}

// countersApplied reads, at MongoDB, the increments the Go server's
// collection for variant name holds (events.Counters.Variant's), with the
// reading the source's rows use (counterSum): one count for both stacks.
func countersApplied(env Env, name course.Variant) func(ctx context.Context) (float64, error) {
	return func(ctx context.Context) (float64, error) {
		if env.Mongo == nil {
			return 0, errors.New(messages.T("scenario.no_mongo"))
		}
		// A wedged FerretDB answers nothing: a reading that hangs is an
		// error naming it, not a bench that never ends.
		ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		t, err := counterSum(ctx, env.Mongo.Counters().Variant(string(name)).Coll)
		return float64(t.value), err
	}
}

// counterRequest writes POST <prefix>likes-<hot-skewed stream id>.
func counterRequest(env Env, prefix string) func(vu *load.VU, req *fasthttp.Request) {
	skew := env.Skew()
	return func(vu *load.VU, req *fasthttp.Request) {
		buf, _ := vu.State.([]byte)
		buf = append(buf[:0], prefix...)
		buf = append(buf, "likes-"...)
		buf = strconv.AppendInt(buf, int64(skew.Pick(vu.Rand)), 10)
		vu.State = buf
		req.Header.SetMethod(fasthttp.MethodPost)
		req.SetRequestURIBytes(buf)
	}
}

// rawCounters runs the author's counter writes on the database alone, one
// caller (ours: raw-increase.js's sequential $inc, and express-counter.js's
// two bulk writers at its batch of 5000, without HTTP): batches of batch
// increments to ids uniform over 0–999, written one batch at a time (batch
// 1: IncOne), as they come (one $inc each) or reduced first (one $inc of
// the count per distinct id), into a collection of its own, emptied first.
func rawCounters(env Env, name string, batch int, reduce bool) func(ctx context.Context, o load.Options) (result.Run, error) {
	return func(ctx context.Context, o load.Options) (result.Run, error) {
		if env.Mongo == nil {
			return result.Run{}, errors.New(messages.T("scenario.no_mongo"))
		}
		c := env.Mongo.Counters().Variant(name)
		if err := c.Coll.Drop(ctx); err != nil {
			return result.Run{}, fmt.Errorf("%s: empty the collection: %w", name, err)
		}
		rng := rand.New(rand.NewPCG(7, 0x5EED))
		hist := hdrhistogram.New(1, 60_000_000, 3)
		var events, writes, errs int64
		var firstErr error
		cpu0 := env.servicesCPU()
		start := time.Now()
		for time.Since(start) < o.Duration && ctx.Err() == nil {
			incs := drawIncs(rng, batch, reduce)
			t0 := time.Now()
			var err error
			if batch == 1 {
				err = c.IncOne(ctx, incs[0].ID, 1)
			} else {
				_, err = c.IncMany(ctx, incs)
			}
			_ = hist.RecordValue(time.Since(t0).Microseconds())
			if err != nil {
				errs++
				if firstErr == nil {
					firstErr = err
				}
			}
			events, writes = events+int64(batch), writes+int64(len(incs))
		}
		elapsed := time.Since(start).Seconds()
		r := result.Run{VUs: 1, Requests: events, Errors: errs, DurationS: elapsed, RPS: float64(events) / elapsed,
			Latency: load.LatencyOf(hist), Extra: map[result.Key]float64{result.PersistedPerS: float64(events) / elapsed,
				result.DBWritesPerReq: float64(writes) / float64(max(events, 1))}}
		dbCPU(&r, env, cpu0, elapsed, events)
		if firstErr != nil {
			r.FirstError = firstErr.Error()
		}
		if o.Progress != nil {
			fmt.Fprintf(o.Progress, "  %-22s %5.1fs  %9d inc  %9.0f inc/s\n", name, elapsed, events, r.RPS)
		}
		return r, ctx.Err()
	}
}

// drawIncs draws batch increments to ids uniform over the author's 0–999:
// one per event, or, reduced, one per distinct id with its count.
func drawIncs(rng *rand.Rand, batch int, reduce bool) []events.Inc {
	if !reduce {
		incs := make([]events.Inc, batch)
		for i := range incs {
			incs[i] = events.Inc{ID: strconv.Itoa(rng.IntN(authorCounterIDs)), N: 1}
		}
		return incs
	}
	counts := map[int]int64{}
	for range batch {
		counts[rng.IntN(authorCounterIDs)]++
	}
	incs := make([]events.Inc, 0, len(counts))
	for id, n := range counts {
		incs = append(incs, events.Inc{ID: strconv.Itoa(id), N: n})
	}
	return incs
}

// distinctIDs is the expected number of distinct ids among n draws from
// the probabilities p (Σ 1 − (1 − pᵢ)ⁿ), plus those of a uniform tail of
// tail share over items ids: what one reduced batch writes.
func distinctIDs(p []float64, tail float64, items, n int) float64 {
	d := 0.0
	for _, pi := range p {
		d += 1 - math.Pow(1-pi, float64(n))
	}
	if tail > 0 && items > 0 {
		d += float64(items) * (1 - math.Pow(1-tail/float64(items), float64(n)))
	}
	return d
}

// implied is the reduction a workload implies: batch ÷ the distinct ids
// expected in a batch (expectedDistinct).
func implied(env Env, batch int, author bool) float64 {
	d := expectedDistinct(env, batch, author)
	if d == 0 {
		return 0
	}
	return float64(batch) / d
}

// expectedDistinct is the number of distinct ids expected in a batch of
// n increments. The author's workload: uniform over 0–999; ours: the hot
// skew (Zipf over the live ids, the cold tail uniform over the catalogue).
func expectedDistinct(env Env, n int, author bool) float64 {
	if author {
		p := make([]float64, authorCounterIDs)
		for i := range p {
			p[i] = 1.0 / authorCounterIDs
		}
		return distinctIDs(p, 0, 0, n)
	}
	c := env.Params.Catalog
	if c.HotItems == 0 {
		return 0
	}
	w, total := make([]float64, c.HotItems), 0.0
	for k := range w {
		w[k] = 1 / math.Pow(float64(k+1), c.ZipfS)
		total += w[k]
	}
	for k := range w {
		w[k] *= c.HotShare / total
	}
	return distinctIDs(w, 1-c.HotShare, c.Items, n)
}

// b9Source is B9's, on either stack.
var b9Source = result.Ours("the method of the author's repo (express-counter.js at " + countersCommit +
	": $inc with upsert, ids uniform over 0–999, batches of 5000 events or 1000 ms), which publishes no figure for counters")

// reduceClaim: B9 — reduce-before-write writes once per distinct id in a
// batch. Neither the article nor the repo gives a counters figure: the bar
// is each workload's own arithmetic, judged on the author's workload (the
// raw rows) and on ours (over HTTP).
// impliedCut is B9's band (ours): bulk ÷ reduce writes per event, as a
// multiple of what the workload implies.
var impliedCut = course.Band{Lo: 0.8, Hi: 1.2}

func reduceClaim(r *result.Result, env Env) result.Claim {
	theirs, theirsEnv, ours := implied(env, authorCounterBatch, true), implied(env, authorEnvBatch, true), implied(env, ourCounterBatch, false)
	text := []any{theirs, authorCounterBatch, theirsEnv, authorEnvBatch, ours, env.Params.Catalog.HotItems, ourCounterBatch}
	c := result.Claim{ID: "B9", Measured: "not measured",
		Source: b9Source,
		Article: fmt.Sprintf("[in Go] counters with $inc + upsert: sync, async, bulkWrite (ordered:false) of one $inc per event, and reduce-before-write: count per id in the batch, one $inc per distinct id. "+
			"A batch of n events then writes only its distinct ids: ÷ %.2f on the author's workload (ids uniform over 0–999, batches of %d; ÷ %.2f with .env.example's %d), ÷ %.1f on ours (%d live ids, Zipf, batches of %d), both our arithmetic; neither the article nor the repo measured it", text...),
		Vi: result.ClaimLines{
			Text: fmt.Sprintf("[trong Go] counter bằng $inc + upsert: sync, async, bulkWrite (ordered:false) mỗi event một $inc, và reduce-before-write: đếm theo id trong lô, mỗi id khác nhau một $inc. "+
				"Khi đó một lô n event chỉ ghi các id khác nhau của nó: ÷ %.2f trên workload của tác giả (id phân bố đều trong 0–999, lô %d event; ÷ %.2f với con số %d của .env.example), ÷ %.1f trên workload của workshop (%d id đang live, Zipf, lô %d event), cả hai đều là phép tính của workshop; cả bài viết lẫn repo đều không đo con số này", text...),
		}}
	c.Tolerate("DB writes per event, bulk ÷ reduce, %s× the workload's batch ÷ distinct ids (the author's raw rows; ours over HTTP); bulk and reduce lose no acknowledged $inc",
		"số lần ghi DB mỗi event, bulk ÷ reduce, %s× lô ÷ số id khác nhau của workload (hàng raw của tác giả; của workshop qua HTTP); bulk và reduce không mất $inc đã xác nhận", impliedCut.Dash())
	within := func(x, want float64) bool { return want > 0 && impliedCut.HoldsFor(x, want) }
	var parts, partsVi []string // the measured line's parts, in English and Vietnamese
	ok := true
	// Data table: B9's two workloads, the author's (raw rows) then ours (over
	// HTTP): one shape, each with its rows, words and precision.
	rb, rr := find(r, course.RawIncBulk), find(r, course.RawIncReduce)
	if w := extra(rr, result.DBWritesPerReq); rb != nil && w > 0 {
		x := extra(rb, result.DBWritesPerReq) / w
		got := []any{extra(rb, result.DBWritesPerReq), w, x, theirs, extra(rr, result.PersistedPerS), extra(rb, result.PersistedPerS), persisted(r, course.RawIncSeq)}
		parts = append(parts, fmt.Sprintf("the author's workload, raw: writes per event bulk %.3f, reduce %.4f (÷ %.2f, implied ÷ %.2f); applied per second: reduce %.0f, bulk %.0f, one at a time %.0f", got...))
		partsVi = append(partsVi, fmt.Sprintf("workload của tác giả, raw: số lần ghi mỗi event bulk %.3f, reduce %.4f (÷ %.2f, suy ra ÷ %.2f); cộng vào mỗi giây: reduce %.0f, bulk %.0f, từng cái một %.0f", got...))
		ok = ok && within(x, theirs) && rb.Errors == 0 && rr.Errors == 0
	}
	b, rd := find(r, course.Bulk), find(r, course.Reduce)
	if w := extra(rd, result.DBWritesPerReq); b != nil && w > 0 {
		x := extra(b, result.DBWritesPerReq) / w
		got := []any{extra(b, result.DBWritesPerReq), w, x, ours, persisted(r, course.Reduce), persisted(r, course.Bulk), persisted(r, course.Sync)}
		parts = append(parts, fmt.Sprintf("ours, over HTTP, writes per request bulk %.3f, reduce %.4f (÷ %.1f, implied ÷ %.1f); applied per second: reduce %.0f, bulk %.0f, sync %.0f", got...))
		partsVi = append(partsVi, fmt.Sprintf("của workshop, qua HTTP: số lần ghi mỗi request bulk %.3f, reduce %.4f (÷ %.1f, suy ra ÷ %.1f); cộng vào mỗi giây: reduce %.0f, bulk %.0f, sync %.0f", got...))
		if p, q := extra(b, result.DBCPUusPerDoc), extra(rd, result.DBCPUusPerDoc); p > 0 && q > 0 {
			cpu := []any{p, q, extra(find(r, course.Sync), result.DBCPUusPerDoc)}
			parts[len(parts)-1] += fmt.Sprintf("; database CPU per event: bulk %.0f µs, reduce %.1f µs, sync %.0f µs", cpu...)
			partsVi[len(partsVi)-1] += fmt.Sprintf("; CPU của database mỗi event: bulk %.0f µs, reduce %.1f µs, sync %.0f µs", cpu...)
		}
		ok = ok && within(x, ours) && b.Errors == 0 && rd.Errors == 0 && heldAll(b) && heldAll(rd)
		for _, row := range []*result.Run{b, rd} {
			if lost := extra(row, result.LostAcknowledged); lost > 0 {
				parts[len(parts)-1] += fmt.Sprintf("; %s: MongoDB lost %.0f increments the server acknowledged", row.Variant, lost)
				partsVi[len(partsVi)-1] += fmt.Sprintf("; %s: MongoDB mất %.0f lần cộng server đã xác nhận", row.Variant, lost)
			}
		}
	}
	return judged(c, parts, partsVi, ok && len(parts) == 2) // both workloads measured
}

// heldAll: MongoDB holds every increment the server acknowledged for
// the row (counted there: persisted; its own count: acknowledged). A row
// recorded before the Go rows counted at MongoDB has no acknowledged.
func heldAll(x *result.Run) bool {
	ack, ok := x.Extra[result.Acknowledged]
	return !ok || x.Extra[result.Persisted] == ack
}

// counterModes are the counter rows of either stack, in table order.
var counterModes = []course.Variant{course.Sync, course.Async, course.Bulk, course.Reduce}

// persistedClaim: the write path's rule on the Go server, counted where
// the source's rows count it (keptAtMongo): every increment the server
// acknowledged as written is in the sum of its row's counters at MongoDB.
func persistedClaim(r *result.Result) result.Claim {
	c := result.Claim{ID: "B9-persisted", Measured: "not measured",
		Source:    result.Ours("the workshop's rule for a write path (accepted = persisted), counted at MongoDB"),
		Article:   "[in Go] every like the server acknowledged as written (sync, async, bulk, reduce) is in MongoDB once the writes settle: persisted is the increase of the sum of the row's counters, read at MongoDB; the server's own count is only acknowledged",
		Tolerance: "an exact count per event: per row, the sum of its counters at MongoDB grew by exactly the increments the server acknowledged",
		Vi: result.ClaimLines{
			Text:      "[trong Go] mỗi lượt like server đã xác nhận là ghi xong (sync, async, bulk, reduce) đều có trong MongoDB sau khi việc ghi đã xong hết: số ghi xuống là phần tăng của tổng các counter của hàng đó, đọc tại MongoDB; con số server tự đếm chỉ là số đã xác nhận",
			Tolerance: "đếm chính xác từng event: với mỗi hàng, tổng các counter của nó tại MongoDB tăng đúng bằng số lần cộng server đã xác nhận",
		}}
	for _, v := range counterModes {
		if x := find(r, v); x == nil || x.Extra[result.Acknowledged] == 0 {
			c.Unjudge("the %s row did not count at MongoDB (not run, or recorded before the Go rows counted there)",
				"hàng %s không được đếm tại MongoDB (không chạy, hoặc ghi lại từ trước khi các hàng Go được đếm ở đó)", v)
			return c
		}
	}
	// Data table: B9-persisted's measured line; B9-express-persisted
	// (step07_original.go) says it of the source's stack, in its own words.
	parts, partsVi, ok := keptAtMongo(r, counterModes, func(x *result.Run) (float64, float64) { return extra(x, result.Acknowledged), 0 })
	c.Measure("persisted at MongoDB of acknowledged by the server: %s", "số ghi xuống MongoDB trên số server đã xác nhận: %s", parts)
	c.Vi.Measured = "số ghi xuống MongoDB trên số server đã xác nhận: " + partsVi
	if !ok && strings.Contains(r.Machine.Mongo, "FerretDB") {
		c.MeasureMore("; on FerretDB 1.x, concurrent $inc on one counter can be lost after it acknowledged them (it reads, then writes the document): sync and async race on the hot counters, bulk and reduce reach each counter once per command; a real mongod applies each $inc atomically",
			"; trên FerretDB 1.x, các $inc đồng thời vào cùng một counter có thể bị mất dù đã được xác nhận (nó đọc rồi mới ghi document): sync và async tranh nhau các counter nóng, còn bulk và reduce mỗi lệnh chỉ chạm mỗi counter một lần; mongod thật thì thực hiện từng $inc một cách atomic")
	}
	c.Reproduced = result.Verdict(ok)
	return c
}

// lostNotes says, under the table, which Go row's MongoDB holds fewer
// increments than the server acknowledged.
func lostNotes(r *result.Result) {
	for _, v := range counterModes {
		x := find(r, v)
		if lost := extra(x, result.LostAcknowledged); lost > 0 {
			r.Notes = append(r.Notes, messages.English.T("note.counters_lost", string(v), lost, extra(x, result.Acknowledged), extra(x, result.Persisted)))
		}
	}
}

// step7Ours: the writes a reduce saves over bulkWrite.
func step7Ours(r *result.Result, _ Env, l messages.Lang) string {
	w := func(x *result.Run) float64 { return x.Extra[result.DBWritesPerReq] }
	return Say(l, "DB writes/request ÷ %.0f (reduce vs bulk)", "lượt ghi DB/request ÷ %.0f (reduce so với bulk)", Field(find(r, course.Bulk), w)/Field(find(r, course.Reduce), w))
}
