package scenario

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/valyala/fasthttp"
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/given/events"
	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/given/routes"
	"github.com/peakload/workshop/internal/given/tracking"
	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/load"
	"github.com/peakload/workshop/internal/harness/result"
)

// Step 6: article B's table, row for row with the author's README
// (step06_repo.go). Two ceilings measured first (the empty POST over HTTP;
// raw inserts with no HTTP, as the repo's raw-insert.js runs them), then
// the four ways to store an event. Each write variant waits after its load
// until everything it accepted is persisted: that wait is the "additional
// time". Every write row records the database's CPU per event.
func init() {
	register(6, Step{
		VUs: 100,
		Variants: func(env Env) []load.Variant {
			n := waveSize(env)
			web := httpWrites(env)
			vs := append(web[:1:1], // the empty POST, then the raw rows, then the four ways to store an event
				load.Variant{Name: course.RawSeq, Route: "InsertOne, one at a time", Direct: rawInserts(env, course.RawSeq, 1)},
				load.Variant{Name: course.Raw100, Route: "InsertOne ×100 at once, awaited together", Direct: rawInserts(env, course.Raw100, 100)},
				load.Variant{Name: course.RawAsync, Route: fmt.Sprintf("InsertOne ×%d sent at once, none awaited", n/10), Direct: rawWave(env, course.RawAsync, n/10, 1)},
				load.Variant{Name: course.RawBulk, Route: "InsertMany ×1000, one at a time", Direct: rawBulk(env, course.RawBulk)},
				load.Variant{Name: course.RawBulkConcurrent, Route: fmt.Sprintf("InsertMany ×1000, %d sent at once", n/1000), Direct: rawWave(env, course.RawBulkConcurrent, n, 1000)})
			vs = append(vs, web[1:]...)
			if env.Original {
				vs = append(vs, bWrites(env)...)
			}
			return vs
		},
		Claims: func(r *result.Result, env Env) []result.Claim {
			if !judgedOnBoth(r, env, 6) {
				return writeClaims(r)
			}
			return append(markInGo(writeClaims(r)...), bWriteClaims(r)...)
		},
		Tables:  writeTables,
		Ours:    step6Ours,
		Rewards: []string{"B8-batch", "B8-ops"}, // events per InsertMany, nothing lost; bulk ÷ sync on the same server
		// B8-batch's rate part (its bar when few events arrive) withholds it only when it set the bar (rateBar).
		KeepOnBusy: []string{"B8-batch"},
	})
}

// httpWrites are the rows a step-6 server serves: the empty POST (from an
// emptied collection: benches add ~100k events each), then the four ways
// to store an event, each settled (its additional time) and charged the
// database's CPU.
func httpWrites(env Env) []load.Variant {
	post := func(name course.Variant, path string) load.Variant {
		return load.Variant{Name: name, Route: routes.POST(path), Method: "POST", Path: path, Body: env.Params.Event,
			Settle: true, Check: honourRetryAfter, DatabaseCPU: env.ServicesCPU}
	}
	empty := post(course.EmptyPost, routes.Empty)
	empty.Settle, empty.DatabaseCPU = false, nil
	empty.Setup = func(ctx context.Context) error {
		if env.Mongo == nil {
			return nil
		}
		return env.Mongo.Events.Drop(ctx)
	}
	return []load.Variant{empty, post(course.Sync, routes.EventsSync), post(course.Async, routes.EventsAsync),
		post(course.Group, routes.EventsGroup), post(course.Bulk, routes.EventsBulk)}
}

// waveSize is how many documents the raw waves send at once: the author's
// 100 000 for a full run (10 s), scaled down with a QUICK one. raw-async
// sends a tenth of it: one insert per round trip is ten times slower.
func waveSize(env Env) int {
	s := env.Params.Load.DurationS
	if env.Quick {
		s = env.Params.Load.QuickDurationS
	}
	return max(1000, int(s*authorEvents/10)/1000*1000)
}

// honourRetryAfter is a well-behaved client: a 503 (the server's buffer
// is full) is not an error, the user waits Retry-After and goes on. The
// server counts the 503s (status_503_share).
func honourRetryAfter(_ *load.VU, resp *fasthttp.Response) error {
	switch code := resp.StatusCode(); {
	case code == fasthttp.StatusServiceUnavailable:
		wait, err := strconv.Atoi(string(resp.Header.Peek("Retry-After")))
		if err != nil || wait <= 0 {
			wait = 1
		}
		time.Sleep(time.Duration(wait) * time.Second)
		return nil
	case code >= 400:
		return fmt.Errorf("HTTP %d: %.200s", code, resp.Body())
	}
	return nil
}

// rawBulk is the database's batch ceiling: InsertMany of 1000 documents,
// one after the other, no HTTP — what the bulk variant can persist at most.
func rawBulk(env Env, name course.Variant) func(ctx context.Context, o load.Options) (result.Run, error) {
	return func(ctx context.Context, o load.Options) (result.Run, error) {
		e, err := rawEvent(env)
		if err != nil {
			return result.Run{}, err
		}
		hist := hdrhistogram.New(1, 60_000_000, 3)
		var n, errs int64
		cpu0 := env.servicesCPU()
		start := time.Now()
		for time.Since(start) < o.Duration && ctx.Err() == nil {
			docs := make([]bson.D, 1000)
			for i := range docs {
				docs[i], _ = events.Document(e, time.Now())
			}
			t0 := time.Now()
			if retry, err := env.Mongo.InsertMany(ctx, docs); err != nil {
				errs += int64(len(retry))
			}
			_ = hist.RecordValue(time.Since(t0).Microseconds())
			n += int64(len(docs))
		}
		elapsed := time.Since(start).Seconds()
		r := result.Run{VUs: 1, Requests: n, Errors: errs, DurationS: elapsed, RPS: float64(n) / elapsed,
			Latency: load.LatencyOf(hist), Extra: map[result.Key]float64{result.PersistedPerS: float64(n) / elapsed, result.DBRoundTripsPerReq: 0.001}}
		dbCPU(&r, env, cpu0, elapsed, n)
		if o.Progress != nil {
			fmt.Fprintf(o.Progress, "  %-22s %5.1fs  %9d ins  %9.0f ins/s\n", name, elapsed, n, r.RPS)
		}
		return r, ctx.Err()
	}
}

// rawEvent is the event the raw rows insert (k6/lib/params.json's, the
// one the write variants are sent), once there is a MongoDB to insert it
// into.
func rawEvent(env Env) (tracking.Event, error) {
	var e tracking.Event
	if env.Mongo == nil {
		return e, errors.New(messages.T("scenario.no_mongo"))
	}
	err := json.Unmarshal(env.Params.Event, &e)
	return e, err
}

// rawInserts is article B's raw-insert baseline: no HTTP, the workshop
// process inserting one document per round trip, either one at a time or
// in groups of `concurrency` awaited together (Promise.all of 100).
func rawInserts(env Env, name course.Variant, concurrency int) func(ctx context.Context, o load.Options) (result.Run, error) {
	return func(ctx context.Context, o load.Options) (result.Run, error) {
		e, err := rawEvent(env)
		if err != nil {
			return result.Run{}, err
		}
		hist := hdrhistogram.New(1, 60_000_000, 3)
		var mu sync.Mutex
		var firstErr error
		errs := 0
		round := func(record bool) {
			var wg sync.WaitGroup
			for range concurrency {
				wg.Add(1)
				go func() {
					defer wg.Done()
					doc, _ := events.Document(e, time.Now())
					t0 := time.Now()
					err := env.Mongo.InsertOne(ctx, doc)
					lat := time.Since(t0)
					mu.Lock()
					defer mu.Unlock()
					if !record {
						return
					}
					_ = hist.RecordValue(lat.Microseconds())
					if err != nil {
						errs++
						if firstErr == nil {
							firstErr = err
						}
					}
				}()
			}
			wg.Wait()
		}
		for warm := time.Now().Add(o.Warmup); time.Now().Before(warm) && ctx.Err() == nil; {
			round(false)
		}
		cpu0 := env.servicesCPU()
		start := time.Now()
		for time.Since(start) < o.Duration && ctx.Err() == nil {
			round(true)
		}
		elapsed := time.Since(start).Seconds()
		n := hist.TotalCount()
		r := result.Run{VUs: concurrency, Requests: n, Errors: int64(errs), DurationS: elapsed, RPS: float64(n) / elapsed,
			Latency: load.LatencyOf(hist), Extra: map[result.Key]float64{result.PersistedPerS: float64(n) / elapsed, result.DBRoundTripsPerReq: 1}}
		dbCPU(&r, env, cpu0, elapsed, n)
		if firstErr != nil {
			r.FirstError = firstErr.Error()
		}
		if o.Progress != nil {
			fmt.Fprintf(o.Progress, "  %-22s %5.1fs  %9d ins  %9.0f ins/s\n", name, elapsed, n, r.RPS)
		}
		return r, ctx.Err()
	}
}

// dbCPU records what the database's processes (FerretDB and PostgreSQL on
// the native stack) spent since cpu0 over elapsed seconds, per document
// and as a share of a core: the author's "Mongo CPU" column.
func dbCPU(r *result.Run, env Env, cpu0, elapsed float64, docs int64) {
	if cpu1 := env.servicesCPU(); cpu0 > 0 {
		load.DatabaseCPU(r, cpu1-cpu0, elapsed, float64(docs))
	}
}

// rawWave mirrors the repo's raw-insert.js insert_async (perCall 1) and
// insert_bulk (perCall 1000: its batcher's flush is not awaited, so every
// batch is in flight at once): n documents sent at once in calls of
// perCall, none awaited before the next is sent, queued for the pool's
// 100 connections (the author's maxPoolSize). The queue is ours, a
// semaphore of 100: Node's driver waits for a connection as long as it
// takes, Go's gives up after its server-selection timeout (5 s). The rate
// is n over the time until the last call returned.
func rawWave(env Env, name course.Variant, n, perCall int) func(ctx context.Context, o load.Options) (result.Run, error) {
	return func(ctx context.Context, o load.Options) (result.Run, error) {
		e, err := rawEvent(env)
		if err != nil {
			return result.Run{}, err
		}
		calls := make([][]bson.D, n/perCall)
		for i := range calls {
			calls[i] = make([]bson.D, perCall)
			for j := range calls[i] {
				calls[i][j], _ = events.Document(e, time.Now())
			}
		}
		hist := hdrhistogram.New(1, 60_000_000, 3)
		var mu sync.Mutex
		var wg sync.WaitGroup
		var errs int64
		var firstErr error
		pool := make(chan struct{}, 100)
		cpu0 := env.servicesCPU()
		start := time.Now()
		for _, docs := range calls {
			wg.Add(1)
			go func() {
				defer wg.Done()
				pool <- struct{}{}
				defer func() { <-pool }()
				t0 := time.Now()
				retry, err := env.Mongo.InsertMany(ctx, docs) // one document: the same insert command as InsertOne
				mu.Lock()
				defer mu.Unlock()
				_ = hist.RecordValue(time.Since(t0).Microseconds())
				if len(retry) > 0 {
					errs += int64(len(retry))
					if firstErr == nil {
						firstErr = err
					}
				}
			}()
		}
		wg.Wait()
		elapsed := time.Since(start).Seconds()
		docs := int64(len(calls) * perCall)
		r := result.Run{VUs: len(calls), Requests: docs, Errors: errs, DurationS: elapsed, RPS: float64(docs) / elapsed,
			Latency: load.LatencyOf(hist), Extra: map[result.Key]float64{result.PersistedPerS: float64(docs-errs) / elapsed, result.DBRoundTripsPerReq: 1 / float64(perCall)}}
		dbCPU(&r, env, cpu0, elapsed, docs)
		if firstErr != nil {
			r.FirstError = firstErr.Error()
		}
		if o.Progress != nil {
			fmt.Fprintf(o.Progress, "  %-22s %5.1fs  %9d ins  %9.0f ins/s\n", name, elapsed, docs, r.RPS)
		}
		return r, ctx.Err()
	}
}

// writeClaims: the learner's batcher first (B8-batch, B8-ops: counts and
// ratios the exercise changes, on the same server), then article B's
// results that the store or the machine bounds, judged against the
// author's own figures: the article's text where it carries them (B4, B6,
// B7), the README's rows otherwise (B8, B8-cpu). Go answers HTTP about ten
// times faster than the author's Express did, so here the database, not
// the HTTP layer, bounds every write row (step06_bulk.go).
func writeClaims(r *result.Result) []result.Claim {
	writeNotes(r)
	return []result.Claim{batchClaim(r), bulkRateClaim(r), bulkCeilingClaim(r), bulkCPUClaim(r), rawConcurrencyClaim(r), asyncClaim(r), groupClaim(r)}
}

// persisted reads a run's events persisted per second.
func persisted(r *result.Result, name course.Variant) float64 {
	return extra(r.Find(name), result.PersistedPerS)
}

// writeNotes: each write variant's whole work against the baselines, and
// what the database spent per event.
func writeNotes(r *result.Result) {
	ep, rs, r100 := find(r, course.EmptyPost), find(r, course.RawSeq), find(r, course.Raw100)
	for _, name := range []course.Variant{course.Sync, course.Async, course.Group, course.Bulk} {
		x := find(r, name)
		if x == nil || ep == nil || rs == nil || r100 == nil || rs.RPS == 0 || r100.RPS == 0 || ep.RPS == 0 {
			continue
		}
		// stored in English, printed in the run's language (messages.Restate)
		key, args := "note.write_row", []any{string(name), x.DurationS + extra(x, result.AdditionalS), x.DurationS, extra(x, result.AdditionalS), x.RPS / ep.RPS, persisted(r, name) / rs.RPS, persisted(r, name) / r100.RPS}
		if rb := find(r, course.RawBulk); rb != nil && rb.RPS > 0 {
			key, args = key+"_bulk", append(args, persisted(r, name)/rb.RPS)
		}
		if us := extra(x, result.DBCPUusPerDoc); us > 0 {
			key, args = key+"_cpu", append(args, us, 100*extra(x, result.DBCPUShare), authorRows[name].Row, authorRows[name].dbCPUus(0))
		}
		r.Notes = append(r.Notes, messages.English.T(key, args...))
	}
}

// B6's tolerances: async still works after the load, and persists at
// sync's rate (1.00× in the author's figures, our arithmetic) within a
// shared machine's slack (ours).
var (
	stillWorking = course.Above(0)
	asyncRate    = course.Band{Lo: 0.7, Hi: 1.3}
)

// asyncClaim: B6, the article's rows 5 and 6.
func asyncClaim(r *result.Result) result.Claim {
	syncRate := fmt.Sprintf("%.0f", authorEvents/authorRows[course.Sync].HTTPS) // the article gives 50.9 s, not a rate
	a := authorRows[course.Async]
	const quote = "process chạy node vẫn tiếp tục xử lý và full CPU trong khoảng 8.5s nữa (là cột Additional time)"
	c := result.Claim{ID: "B6", Measured: "not measured", Rows: []course.Variant{course.Sync, course.Async},
		Source:  result.Article("B", quote, syncRate, "1.00"),
		Article: fmt.Sprintf("insert_async answers sooner (%.0f req/s: %.1f s against sync's %.1f s) but keeps working %.1f s after the load; it persists %.0f/s, sync's rate (%s/s, our arithmetic: 1.00×): the work is moved, not removed", a.HTTPRPS, a.HTTPS, authorRows[course.Sync].HTTPS, a.AddS, a.OpsRPS, syncRate),
		Vi: result.ClaimLines{
			Text: fmt.Sprintf("insert_async trả lời sớm hơn (%.0f req/s: %.1f s so với %.1f s của sync) nhưng hết tải rồi vẫn chạy thêm %.1f s: “%s”; nó ghi xuống %.0f/s, đúng tốc độ của sync (%s/s, phép tính của workshop: 1.00×): việc chỉ bị dời đi chứ không mất đi",
				a.HTTPRPS, a.HTTPS, authorRows[course.Sync].HTTPS, a.AddS, quote, a.OpsRPS, syncRate),
		}}
	c.Tolerate("async keeps working after the load (additional time %s) and persists %s× sync's rate: 1.00× in the author's figures (our arithmetic), %s (ours) for a shared machine",
		"async vẫn làm việc sau khi hết tải (additional time %s) và ghi xuống %s× tốc độ của sync: 1.00× theo số liệu của tác giả (phép tính của workshop), %s (của workshop) cho máy dùng chung",
		stillWorking, asyncRate.Dash(), asyncRate.Spread())
	as, sy := find(r, course.Async), find(r, course.Sync)
	if as == nil || sy == nil || persisted(r, course.Sync) == 0 || sy.RPS == 0 {
		return c
	}
	x := persisted(r, course.Async) / persisted(r, course.Sync)
	c.Measure("async answered %.0f req/s, sync %.0f (%.2f×; the author's %.2f×, our arithmetic), and kept inserting %.2f s after the load; persisted %.0f/s = %.2f× sync",
		"async trả lời %.0f req/s, sync %.0f (%.2f×; của tác giả %.2f×, phép tính của workshop), và hết tải rồi vẫn insert thêm %.2f s; ghi xuống %.0f/s = %.2f× sync",
		as.RPS, sy.RPS, as.RPS/sy.RPS, a.HTTPRPS/authorRows[course.Sync].HTTPRPS, extra(as, result.AdditionalS), persisted(r, course.Async), x)
	if p, q := extra(as, result.DBCPUusPerDoc), extra(sy, result.DBCPUusPerDoc); p > 0 && q > 0 {
		c.MeasureMore("; database CPU per event %.0f µs against sync's %.0f (the author's %.0f and %.0f, our arithmetic)",
			"; CPU của database mỗi event %.0f µs so với %.0f của sync (của tác giả %.0f và %.0f, phép tính của workshop)", p, q, a.dbCPUus(0), authorRows[course.Sync].dbCPUus(0))
	}
	c.Reproduced = result.Verdict(stillWorking.Holds(extra(as, result.AdditionalS)) && asyncRate.Holds(x) && as.Errors == 0)
	return c
}

// faster is B7's reading of the article's "faster": group ÷ async.
var faster = course.Bound{Op: "≥", V: 1, Places: 1}

// groupClaim: B7, the article's rows 6 and 7.
func groupClaim(r *result.Result) result.Claim {
	g, a := authorRows[course.Group], authorRows[course.Async]
	theirs := fmt.Sprintf("%.2f", g.OpsRPS/a.OpsRPS)
	const quote = "Tốc độ tổng thể (Ops RPS) của bài test này là 2673 rps, nhanh hơn so với 1968 rps của bài số 6."
	c := result.Claim{ID: "B7", Measured: "not measured", Rows: []course.Variant{course.Async, course.Group},
		Source:  result.Article("B", quote, theirs),
		Article: fmt.Sprintf("insert_group (buffer everything, then insert 100 at a time concurrently): %.0f ops/s overall, faster than insert_async's %.0f (%s×, our arithmetic), by giving the one CPU one task at a time; its 37.4 s = %.1f s receiving + %.1f s inserting, its own two phases, which the article likens to tests 2 and 4 (24.8 s and 12.1 s)", g.OpsRPS, a.OpsRPS, theirs, g.HTTPS, g.AddS),
		Vi: result.ClaimLines{
			Text: fmt.Sprintf("insert_group (gom hết vào buffer, rồi insert đồng thời 100 cái một lúc): “%s” (%s×, phép tính của workshop), nhờ mỗi lúc chỉ giao cho CPU duy nhất một việc; 37.4 s của nó = %.1f s nhận + %.1f s insert, hai pha của chính nó, mà bài viết ví với bài test 2 và 4 (24.8 s và 12.1 s)",
				quote, theirs, g.HTTPS, g.AddS),
		}}
	c.Tolerate("group persists %s async's rate, the article's \"faster\" (the author's "+theirs+"×, our arithmetic), which holds where the server's own CPU bounds the writes",
		"group ghi xuống %s tốc độ của async, chữ “nhanh hơn” của bài viết (của tác giả "+theirs+"×, phép tính của workshop), điều này đúng khi chính CPU của server là thứ giới hạn việc ghi", faster.Times())
	gr, as := find(r, course.Group), find(r, course.Async)
	if gr == nil || as == nil || persisted(r, course.Async) == 0 {
		return c
	}
	x := persisted(r, course.Group) / persisted(r, course.Async)
	c.Measure("group persisted %.0f/s = %.2f× async (%.0f/s); additional time %.2f s", "group ghi xuống %.0f/s = %.2f× async (%.0f/s); additional time %.2f s",
		persisted(r, course.Group), x, persisted(r, course.Async), extra(gr, result.AdditionalS))
	if db := extra(as, result.DBCPUusPerDoc); db > 0 && as.PerRequest.ServerCPUus > 0 {
		c.MeasureMore("; async's server CPU %.0f µs per request against the database's %.0f µs per event",
			"; ở async, CPU của server %.0f µs mỗi request so với %.0f µs mỗi event của database", as.PerRequest.ServerCPUus, db)
	}
	c.Reproduced = result.Verdict(faster.Holds(x) && gr.Errors == 0)
	return c
}

// step6Ours: the bulk batcher's persisted rate against sync's, and its round trips.
func step6Ours(r *result.Result, _ Env, l messages.Lang) string {
	ps := func(x *result.Run) float64 { return x.Extra[result.PersistedPerS] }
	rt := func(x *result.Run) float64 { return x.Extra[result.DBRoundTripsPerReq] }
	return Say(l, "bulk persists %.1f× sync's rate, %.4f round trips/event", "bulk ghi xuống nhanh gấp %.1f× sync, %.4f round trip/event", Field(find(r, course.Bulk), ps)/Field(find(r, course.Sync), ps), Field(find(r, course.Bulk), rt))
}
