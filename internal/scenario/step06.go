package scenario

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/valyala/fasthttp"
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/course"
	"github.com/peakload/workshop/internal/events"
	"github.com/peakload/workshop/internal/load"
	"github.com/peakload/workshop/internal/messages"
	"github.com/peakload/workshop/internal/result"
	"github.com/peakload/workshop/internal/tracking"
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
			post := func(name, path string) load.Variant {
				return load.Variant{Name: name, Route: "POST " + path, Method: "POST", Path: path, Body: env.Params.Event,
					Settle: true, Check: honourRetryAfter, DatabaseCPU: env.ServicesCPU}
			}
			empty := post(string(course.EmptyPost), "/empty")
			empty.Settle, empty.DatabaseCPU = false, nil
			empty.Setup = func(ctx context.Context) error { // start from an empty collection: benches add ~100k events each
				if env.Mongo == nil {
					return nil
				}
				return env.Mongo.Events.Drop(ctx)
			}
			n := waveSize(env)
			return []load.Variant{
				empty,
				{Name: string(course.RawSeq), Route: "InsertOne, one at a time", Direct: rawInserts(env, 1)},
				{Name: string(course.Raw100), Route: "InsertOne ×100 at once, awaited together", Direct: rawInserts(env, 100)},
				{Name: string(course.RawAsync), Route: fmt.Sprintf("InsertOne ×%d sent at once, none awaited", n/10), Direct: rawWave(env, n/10, 1)},
				{Name: string(course.RawBulk), Route: "InsertMany ×1000, one at a time", Direct: rawBulk(env)},
				{Name: string(course.RawBulkConcurrent), Route: fmt.Sprintf("InsertMany ×1000, %d sent at once", n/1000), Direct: rawWave(env, n, 1000)},
				post(string(course.Sync), "/events/sync"),
				post(string(course.Async), "/events/async"),
				post(string(course.Group), "/events/group"),
				post(string(course.Bulk), "/events/bulk"),
			}
		},
		Claims: func(r *result.Result, env Env) []result.Claim { return writeClaims(r) },
		Tables: writeTables,
		Ours:   step6Ours,
	})
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
func rawBulk(env Env) func(ctx context.Context, o load.Options) (result.Run, error) {
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
			Latency: load.LatencyOf(hist), Extra: map[string]float64{"persisted_per_s": float64(n) / elapsed, "db_round_trips_per_req": 0.001}}
		dbCPU(&r, env, cpu0, elapsed, n)
		if o.Progress != nil {
			fmt.Fprintf(o.Progress, "  %-22s %5.1fs  %9d ins  %9.0f ins/s\n", "raw InsertMany ×1000", elapsed, n, r.RPS)
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
		return e, fmt.Errorf("no MongoDB connection")
	}
	err := json.Unmarshal(env.Params.Event, &e)
	return e, err
}

// rawInserts is article B's raw-insert baseline: no HTTP, the workshop
// process inserting one document per round trip, either one at a time or
// in groups of `concurrency` awaited together (Promise.all of 100).
func rawInserts(env Env, concurrency int) func(ctx context.Context, o load.Options) (result.Run, error) {
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
			Latency: load.LatencyOf(hist), Extra: map[string]float64{"persisted_per_s": float64(n) / elapsed, "db_round_trips_per_req": 1}}
		dbCPU(&r, env, cpu0, elapsed, n)
		if firstErr != nil {
			r.FirstError = firstErr.Error()
		}
		if o.Progress != nil {
			fmt.Fprintf(o.Progress, "  %-22s %5.1fs  %9d ins  %9.0f ins/s\n", fmt.Sprintf("raw ×%d", concurrency), elapsed, n, r.RPS)
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
func rawWave(env Env, n, perCall int) func(ctx context.Context, o load.Options) (result.Run, error) {
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
			Latency: load.LatencyOf(hist), Extra: map[string]float64{"persisted_per_s": float64(docs-errs) / elapsed, "db_round_trips_per_req": 1 / float64(perCall)}}
		dbCPU(&r, env, cpu0, elapsed, docs)
		if firstErr != nil {
			r.FirstError = firstErr.Error()
		}
		if o.Progress != nil {
			fmt.Fprintf(o.Progress, "  %-22s %5.1fs  %9d ins  %9.0f ins/s\n", fmt.Sprintf("raw wave %d×%d", len(calls), perCall), elapsed, docs, r.RPS)
		}
		return r, ctx.Err()
	}
}

// writeClaims: article B's results, judged against the author's own
// figures: the article's text where it carries them (B4, B6, B7), the
// README's rows otherwise (B8). Go answers HTTP about ten times faster than
// the author's Express did, so here the database, not the HTTP layer,
// bounds every write row: each tolerance says which ratio carries over.
func writeClaims(r *result.Result) []result.Claim {
	writeNotes(r)
	b8, b8cpu := bulkClaims(r)
	return []result.Claim{b8, b8cpu, rawConcurrencyClaim(r), asyncClaim(r), groupClaim(r)}
}

// persisted reads a run's events persisted per second.
func persisted(r *result.Result, name string) float64 { return extra(r.Find(name), "persisted_per_s") }

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
		key, args := "note.write_row", []any{string(name), x.DurationS + extra(x, "additional_s"), x.DurationS, extra(x, "additional_s"), x.RPS / ep.RPS, persisted(r, string(name)) / rs.RPS, persisted(r, string(name)) / r100.RPS}
		if rb := find(r, course.RawBulk); rb != nil && rb.RPS > 0 {
			key, args = key+"_bulk", append(args, persisted(r, string(name))/rb.RPS)
		}
		if us := extra(x, "db_cpu_us_per_doc"); us > 0 {
			key, args = key+"_cpu", append(args, us, 100*extra(x, "db_cpu_share"), authorRows[name].Row, authorRows[name].dbCPUus(0))
		}
		r.Notes = append(r.Notes, messages.English.T(key, args...))
	}
}

// flushInterval is internal/writes' FlushInterval, the batcher's longest
// wait (TestConstantsAreTheServers holds them equal), named here so the
// bench links no write path.
const flushInterval = time.Second

// bulkBuffer is steps/06-buffered-writes/main.go's Capacity: the most
// events that may still wait in the batcher when the load stops.
const bulkBuffer = 5_000

// bulkClaims: B8 (rows 2, 5 and 9: bulk's rates) and B8-cpu (rows 5 and
// 9: what the database spends per event, sync against bulk).
func bulkClaims(r *result.Result) (result.Claim, result.Claim) {
	ep, sy, bu := authorRows[course.EmptyPost], authorRows[course.Sync], authorRows[course.Bulk]
	text := []any{bu.HTTPRPS, bu.HTTPRPS / ep.HTTPRPS, ep.HTTPRPS, bu.OpsRPS, bu.OpsRPS / sy.ops(), sy.ops(), bu.AddS}
	bar := []any{bu.HTTPRPS / ep.HTTPRPS, bu.OpsRPS / sy.ops(), bu.AddS}
	b8 := result.Claim{ID: "B8", Measured: "not measured",
		Source:  result.Repo(`README "Test Result" rows 2, 5 and 9 (Express: Empty POST, Insert Sync, Insert Bulk) at `+result.RepoCommit, "0.93", "1.84"),
		Article: fmt.Sprintf("insert_bulk (bulk.js: one insertMany per 1000 events or 1000 ms): %.0f req/s = %.2f× the empty POST's %.0f; %.0f ops/s persisted = %.2f× sync's %.0f; %.0f s of additional time", text...),
		Tolerance: fmt.Sprintf("bulk accepts ≥ 0.8× the lower of its two ceilings, the empty POST and the database's InsertMany rate (raw-bulk): the author's %.2f× was against the empty POST, the lower on Express; with Go's HTTP ~10× Node's the database is the lower here; "+
			"persisted ≥ the author's %.2f× sync, the author's bar as is: on Express the HTTP ceiling held bulk there, here the database's own InsertMany over single inserts (printed) bounds it; additional time ≤ one flush interval (the author's %.0f s: the last partial batch) + the time the database takes to write a full buffer at raw-bulk's rate (the author's buffer never held more than a batch, its database being faster than its HTTP; ours holds up to 5000) + half an interval for a shared machine", bar...),
		Vi: result.ClaimLines{
			Text: fmt.Sprintf("insert_bulk (bulk.js: một lệnh insertMany cho mỗi 1000 event hoặc mỗi 1000 ms): %.0f req/s = %.2f× empty POST (%.0f); ghi xuống %.0f ops/s = %.2f× sync (%.0f); additional time %.0f s", text...),
			Tolerance: fmt.Sprintf("bulk nhận ≥ 0.8× mức trần thấp hơn trong hai mức trần của nó, empty POST và tốc độ InsertMany của database (raw-bulk): %.2f× của tác giả là so với empty POST, mức thấp hơn trên Express; HTTP của Go nhanh ~10× Node nên ở đây database mới là mức thấp hơn; "+
				"ghi xuống ≥ %.2f× sync, giữ nguyên ngưỡng của tác giả: trên Express, mức trần HTTP giữ bulk lại, còn ở đây chính InsertMany so với insert từng cái của database (có in ra) chặn nó; additional time ≤ một chu kỳ flush (%.0f s của tác giả: lô cuối chưa đầy) + thời gian database ghi hết một buffer đầy ở tốc độ của raw-bulk (buffer của tác giả chưa bao giờ giữ quá một lô, vì database của họ nhanh hơn HTTP; buffer của workshop giữ tới 5000) + nửa chu kỳ cho máy dùng chung", bar...),
		}}
	e, s, b := find(r, course.EmptyPost), find(r, course.Sync), find(r, course.Bulk)
	if e != nil && s != nil && b != nil && persisted(r, string(course.Sync)) > 0 && e.RPS > 0 {
		ceiling, which, whichVi := e.RPS, "the empty POST", "empty POST"
		if rb := find(r, course.RawBulk); rb != nil && rb.RPS > 0 && rb.RPS < ceiling {
			ceiling, which, whichVi = rb.RPS, "raw InsertMany", "raw InsertMany"
		}
		acc, add, y := extra(b, "accepted_per_s"), extra(b, "additional_s"), persisted(r, string(course.Bulk))/persisted(r, string(course.Sync))
		drain := 1.5*flushInterval.Seconds() + ratio(bulkBuffer, extra(find(r, course.RawBulk), "persisted_per_s")) // interval + a full buffer + half an interval
		got := []any{acc, acc / ceiling, which, ceiling, e.RPS, acc / e.RPS, 100 * extra(b, "status_503_share"), persisted(r, string(course.Bulk)), y, persisted(r, string(course.Sync)), bu.OpsRPS / sy.ops(), add, bu.AddS, drain}
		b8.Measured = fmt.Sprintf("bulk accepted %.0f events/s = %.2f× %s (%.0f/s; the empty POST %.0f req/s, so %.2f× it; %.0f%% of requests told to retry later); persisted %.0f/s = %.2f× sync (%.0f/s; the author's %.2f×); additional time %.2f s (the author's %.0f s; the bar %.2f s)", got...)
		got[2] = whichVi
		b8.Vi.Measured = fmt.Sprintf("bulk nhận %.0f event/s = %.2f× %s (%.0f/s; empty POST %.0f req/s, tức %.2f× nó; %.0f%% request được bảo thử lại sau); ghi xuống %.0f/s = %.2f× sync (%.0f/s; của tác giả %.2f×); additional time %.2f s (của tác giả %.0f s; ngưỡng %.2f s)", got...)
		if rb, one := find(r, course.RawBulk), find(r, course.Raw100); rb != nil && one != nil && one.RPS > 0 {
			b8.MeasureMore("; the database alone: raw InsertMany ÷ raw ×100 = %.1f×", "; riêng database: raw InsertMany ÷ raw ×100 = %.1f×", rb.RPS/one.RPS)
		}
		b8.Reproduced = result.Verdict(acc/ceiling >= 0.8 && y >= bu.OpsRPS/sy.ops() && add <= drain && b.Errors == 0)
	}
	return b8, bulkCPUClaim(r)
}

// bulkCPUClaim: B8-cpu, rows 5 and 9's "Mongo CPU", per event.
func bulkCPUClaim(r *result.Result) result.Claim {
	sy, bu := authorRows[course.Sync], authorRows[course.Bulk]
	ratio, least := authorCPURatio()
	cpu := result.Claim{ID: "B8-cpu", Measured: "not measured",
		Source:    result.Repo(`README "Test Result" rows 5 and 9 (Express Insert Sync and Insert Bulk: "Mongo CPU") at `+result.RepoCommit, fmt.Sprintf("%.0f", ratio)),
		Article:   fmt.Sprintf("bulk cuts the database's work: Mongo CPU %.0f %% for sync over %.1f s, %.0f %% for bulk over %.1f s + %.0f s, for 100k events each: ÷ %.0f per event, our arithmetic", sy.MongoCPU, sy.HTTPS, bu.MongoCPU, bu.HTTPS, bu.AddS, ratio),
		Tolerance: fmt.Sprintf("database CPU per event, sync ÷ bulk, ≥ %.1f: the least the author's figures allow (the column is in whole percent: 35.5 %% and 3.49 %%). A property of the database, so it carries over as far as FerretDB + PostgreSQL batch like MongoDB", least),
		Vi: result.ClaimLines{
			Text:      fmt.Sprintf("bulk giảm việc của database: Mongo CPU %.0f %% với sync trong %.1f s, %.0f %% với bulk trong %.1f s + %.0f s, mỗi bên 100k event: ÷ %.0f trên mỗi event, phép tính của workshop", sy.MongoCPU, sy.HTTPS, bu.MongoCPU, bu.HTTPS, bu.AddS, ratio),
			Tolerance: fmt.Sprintf("CPU của database mỗi event, sync ÷ bulk, ≥ %.1f: mức thấp nhất mà số của tác giả cho phép (cột đó làm tròn tới phần trăm: 35.5 %% và 3.49 %%). Đây là tính chất của database, nên nó đúng ở đây trong chừng mực FerretDB + PostgreSQL ghi theo lô như MongoDB", least),
		}}
	s, b := find(r, course.Sync), find(r, course.Bulk)
	if s != nil && b != nil && extra(b, "db_cpu_us_per_doc") > 0 && extra(s, "db_cpu_us_per_doc") > 0 {
		x := extra(s, "db_cpu_us_per_doc") / extra(b, "db_cpu_us_per_doc")
		cpu.Measure("database CPU per event: sync %.0f µs (%.0f %% of a core), bulk %.0f µs (%.0f %%): ÷ %.1f (the author's ÷ %.0f: %.0f µs and %.1f µs, our arithmetic)",
			"CPU của database mỗi event: sync %.0f µs (%.0f %% một core), bulk %.0f µs (%.0f %%): ÷ %.1f (của tác giả ÷ %.0f: %.0f µs và %.1f µs, phép tính của workshop)",
			extra(s, "db_cpu_us_per_doc"), 100*extra(s, "db_cpu_share"), extra(b, "db_cpu_us_per_doc"), 100*extra(b, "db_cpu_share"), x, ratio, sy.dbCPUus(0), bu.dbCPUus(0))
		if one, many := find(r, course.Raw100), find(r, course.RawBulk); extra(one, "db_cpu_us_per_doc") > 0 && extra(many, "db_cpu_us_per_doc") > 0 {
			cpu.MeasureMore("; the database alone, no HTTP, %.0f µs per document inserted 100 at a time, %.0f µs in an InsertMany of 1000 (÷ %.1f)",
				"; riêng database, không qua HTTP: %.0f µs mỗi document khi insert 100 cái một lúc, %.0f µs trong một InsertMany 1000 cái (÷ %.1f)",
				extra(one, "db_cpu_us_per_doc"), extra(many, "db_cpu_us_per_doc"), extra(one, "db_cpu_us_per_doc")/extra(many, "db_cpu_us_per_doc"))
		}
		cpu.Reproduced = result.Verdict(x >= least)
	}
	return cpu
}

// rawConcurrencyClaim: B4, the article's raw rows 3 and 4.
func rawConcurrencyClaim(r *result.Result) result.Claim {
	seq, hundred := authorRows[course.RawSeq], authorRows[course.Raw100]
	theirs := fmt.Sprintf("%.2f", hundred.HTTPRPS/seq.HTTPRPS)
	const quote = "thay vì tốc độ tăng lên 100 lần như chúng ta nghĩ (kiểu con đường có 100 làn xe) thì ở đây tốc độ chỉ tăng khoảng 3 lần"
	band := []any{hundred.HTTPRPS / seq.HTTPRPS / 2, hundred.HTTPRPS / seq.HTTPRPS * 2, theirs}
	c := result.Claim{ID: "B4", Measured: "not measured",
		Source:    result.Article("B", quote, theirs),
		Article:   fmt.Sprintf("raw inserts 100 at a time: %.0f/s against %.0f/s one at a time (%s×, our arithmetic): about 3×, not 100×; a CPU, the library's, not the connections, is the limit, and Mongo CPU goes from 52%% to 130%%", hundred.HTTPRPS, seq.HTTPRPS, theirs),
		Tolerance: fmt.Sprintf("raw ×100 ÷ one at a time between %.1f and %.1f, the author's %s× within a factor of 2: it carries over where a CPU, not the connections, bounds concurrent inserts. The author's was the driver's (Node); here the database's CPU per insert is printed for both rows", band...),
		Vi: result.ClaimLines{
			Text:      fmt.Sprintf("raw insert 100 cái một lúc: %.0f/s so với %.0f/s khi insert từng cái (%s×, phép tính của workshop): “%s”; giới hạn là một CPU, của thư viện, chứ không phải số kết nối, và Mongo CPU đi từ 52%% lên 130%%", hundred.HTTPRPS, seq.HTTPRPS, theirs, quote),
			Tolerance: fmt.Sprintf("raw ×100 ÷ từng cái một trong khoảng %.1f đến %.1f, tức %s× của tác giả, sai lệch không quá gấp đôi: nó đúng ở nơi một CPU, chứ không phải số kết nối, chặn các lượt insert đồng thời. Ở bài viết đó là CPU của driver (Node); ở đây CPU của database cho mỗi insert được in ra ở cả hai hàng", band...),
		}}
	rs, r100 := find(r, course.RawSeq), find(r, course.Raw100)
	if rs == nil || r100 == nil || rs.RPS == 0 {
		return c
	}
	x := r100.RPS / rs.RPS
	c.Measure("raw ×100 %.0f inserts/s vs one at a time %.0f/s = %.2f×", "raw ×100 %.0f insert/s so với từng cái một %.0f/s = %.2f×", r100.RPS, rs.RPS, x)
	if a, b := extra(rs, "db_cpu_us_per_doc"), extra(r100, "db_cpu_us_per_doc"); a > 0 && b > 0 {
		c.MeasureMore("; the database's CPU: %.0f µs per insert one at a time (%.0f %% of a core), %.0f µs 100 at a time (%.0f %%); the author's %.0f → %.0f µs (our arithmetic)",
			"; CPU của database: %.0f µs mỗi insert khi insert từng cái (%.0f %% một core), %.0f µs khi 100 cái một lúc (%.0f %%); của tác giả %.0f → %.0f µs (phép tính của workshop)",
			a, 100*extra(rs, "db_cpu_share"), b, 100*extra(r100, "db_cpu_share"), seq.dbCPUus(0), hundred.dbCPUus(0))
	}
	mid := hundred.HTTPRPS / seq.HTTPRPS
	c.Reproduced = result.Verdict(x >= mid/2 && x <= mid*2 && r100.Errors == 0 && rs.Errors == 0)
	return c
}

// asyncClaim: B6, the article's rows 5 and 6.
func asyncClaim(r *result.Result) result.Claim {
	syncRate := fmt.Sprintf("%.0f", authorEvents/authorRows[course.Sync].HTTPS) // the article gives 50.9 s, not a rate
	a := authorRows[course.Async]
	const quote = "process chạy node vẫn tiếp tục xử lý và full CPU trong khoảng 8.5s nữa (là cột Additional time)"
	c := result.Claim{ID: "B6", Measured: "not measured",
		Source:    result.Article("B", quote, syncRate, "1.00"),
		Article:   fmt.Sprintf("insert_async answers sooner (%.0f req/s: %.1f s against sync's %.1f s) but keeps working %.1f s after the load; it persists %.0f/s, sync's rate (%s/s, our arithmetic: 1.00×): the work is moved, not removed", a.HTTPRPS, a.HTTPS, authorRows[course.Sync].HTTPS, a.AddS, a.OpsRPS, syncRate),
		Tolerance: "async keeps working after the load (additional time > 0) and persists 0.7–1.3× sync's rate: the author's 1.00×, ±30 % for a shared machine. It carries over wherever one resource bounds both variants: Node's CPU there, the database here",
		Vi: result.ClaimLines{
			Text: fmt.Sprintf("insert_async trả lời sớm hơn (%.0f req/s: %.1f s so với %.1f s của sync) nhưng hết tải rồi vẫn chạy thêm %.1f s: “%s”; nó ghi xuống %.0f/s, đúng tốc độ của sync (%s/s, phép tính của workshop: 1.00×): việc chỉ bị dời đi chứ không mất đi",
				a.HTTPRPS, a.HTTPS, authorRows[course.Sync].HTTPS, a.AddS, quote, a.OpsRPS, syncRate),
			Tolerance: "async vẫn làm việc sau khi hết tải (additional time > 0) và ghi xuống 0.7–1.3× tốc độ của sync: 1.00× của tác giả, ±30 % cho máy dùng chung. Nó đúng ở bất cứ đâu một tài nguyên chặn cả hai biến thể: ở bài viết là CPU của Node, ở đây là database",
		}}
	as, sy := find(r, course.Async), find(r, course.Sync)
	if as == nil || sy == nil || persisted(r, string(course.Sync)) == 0 || sy.RPS == 0 {
		return c
	}
	x := persisted(r, string(course.Async)) / persisted(r, string(course.Sync))
	c.Measure("async answered %.0f req/s, sync %.0f (%.2f×; the author's %.2f×), and kept inserting %.2f s after the load; persisted %.0f/s = %.2f× sync",
		"async trả lời %.0f req/s, sync %.0f (%.2f×; của tác giả %.2f×), và hết tải rồi vẫn insert thêm %.2f s; ghi xuống %.0f/s = %.2f× sync",
		as.RPS, sy.RPS, as.RPS/sy.RPS, a.HTTPRPS/authorRows[course.Sync].HTTPRPS, extra(as, "additional_s"), persisted(r, string(course.Async)), x)
	if p, q := extra(as, "db_cpu_us_per_doc"), extra(sy, "db_cpu_us_per_doc"); p > 0 && q > 0 {
		c.MeasureMore("; database CPU per event %.0f µs against sync's %.0f (the author's %.0f and %.0f, our arithmetic)",
			"; CPU của database mỗi event %.0f µs so với %.0f của sync (của tác giả %.0f và %.0f, phép tính của workshop)", p, q, a.dbCPUus(0), authorRows[course.Sync].dbCPUus(0))
	}
	c.Reproduced = result.Verdict(extra(as, "additional_s") > 0 && x >= 0.7 && x <= 1.3 && as.Errors == 0)
	return c
}

// groupClaim: B7, the article's rows 6 and 7.
func groupClaim(r *result.Result) result.Claim {
	g, a := authorRows[course.Group], authorRows[course.Async]
	theirs := fmt.Sprintf("%.2f", g.OpsRPS/a.OpsRPS)
	const quote = "Tốc độ tổng thể (Ops RPS) của bài test này là 2673 rps, nhanh hơn so với 1968 rps của bài số 6."
	c := result.Claim{ID: "B7", Measured: "not measured",
		Source:    result.Article("B", quote, theirs),
		Article:   fmt.Sprintf("insert_group (buffer everything, then insert 100 at a time concurrently): %.0f ops/s overall, faster than insert_async's %.0f (%s×, our arithmetic), by giving the one CPU one task at a time; its 37.4 s = %.1f s receiving + %.1f s inserting, its own two phases, which the article likens to tests 2 and 4 (24.8 s and 12.1 s)", g.OpsRPS, a.OpsRPS, theirs, g.HTTPS, g.AddS),
		Tolerance: "group persists ≥ 1.0× async's rate, the article's \"faster\" (the author's " + theirs + "×). It carries over only where the server's own CPU bounds the writes, as Node's one core did: here the database bounds both, and the server's CPU per request is a fraction of the database's per event (printed)",
		Vi: result.ClaimLines{
			Text: fmt.Sprintf("insert_group (gom hết vào buffer, rồi insert đồng thời 100 cái một lúc): “%s” (%s×, phép tính của workshop), nhờ mỗi lúc chỉ giao cho CPU duy nhất một việc; 37.4 s của nó = %.1f s nhận + %.1f s insert, hai pha của chính nó, mà bài viết ví với bài test 2 và 4 (24.8 s và 12.1 s)",
				quote, theirs, g.HTTPS, g.AddS),
			Tolerance: "group ghi xuống ≥ 1.0× tốc độ của async, chữ “nhanh hơn” của bài viết (của tác giả " + theirs + "×). Nó chỉ đúng ở nơi chính CPU của server chặn việc ghi, như một core duy nhất của Node: ở đây database chặn cả hai, và CPU của server mỗi request chỉ bằng một phần nhỏ CPU của database mỗi event (có in ra)",
		}}
	gr, as := find(r, course.Group), find(r, course.Async)
	if gr == nil || as == nil || persisted(r, string(course.Async)) == 0 {
		return c
	}
	x := persisted(r, string(course.Group)) / persisted(r, string(course.Async))
	c.Measure("group persisted %.0f/s = %.2f× async (%.0f/s); additional time %.2f s", "group ghi xuống %.0f/s = %.2f× async (%.0f/s); additional time %.2f s",
		persisted(r, string(course.Group)), x, persisted(r, string(course.Async)), extra(gr, "additional_s"))
	if db := extra(as, "db_cpu_us_per_doc"); db > 0 && as.PerRequest.ServerCPUus > 0 {
		c.MeasureMore("; async's server CPU %.0f µs per request against the database's %.0f µs per event",
			"; ở async, CPU của server %.0f µs mỗi request so với %.0f µs mỗi event của database", as.PerRequest.ServerCPUus, db)
	}
	c.Reproduced = result.Verdict(x >= 1.0 && gr.Errors == 0)
	return c
}

// step6Ours: the bulk batcher's persisted rate against sync's, and its round trips.
func step6Ours(r *result.Result, _ Env) string {
	ps := func(x *result.Run) float64 { return x.Extra["persisted_per_s"] }
	rt := func(x *result.Run) float64 { return x.Extra["db_round_trips_per_req"] }
	return fmt.Sprintf("bulk persists %.1f× sync's rate, %.4f round trips/event", Field(find(r, course.Bulk), ps)/Field(find(r, course.Sync), ps), Field(find(r, course.Bulk), rt))
}
