package scenario

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/result"
)

// Step 6's bulk claims. Two are the learner's: B8-batch (round trips per
// event, every accepted event persisted: counts the batcher alone sets)
// and B8-ops (bulk against sync on the same server, the author's ratio).
// Three are the store's or the machine's (B8: bulk near its ceiling;
// B8-cpu: the database's CPU per event; B4 in step06.go): when one does not
// reproduce, its measured line ends with why, in one short sentence. The
// bars' derivations are in the step's README, "Why these tolerances".

// flushInterval is internal/given/writes' FlushInterval, the batcher's longest
// wait (TestConstantsAreTheServers holds them equal), named here so the
// bench links no write path.
const flushInterval = time.Second

// bulkBuffer is steps/06-buffered-writes/main.go's Capacity: the most
// events that may still wait in the batcher's queue when the load stops
// (beside the one batch being written, which B8-ops's 1.5 intervals cover).
const bulkBuffer = 5_000

// bulkBatch is steps/06-buffered-writes/main.go's BatchSize, bulk.js's:
// a batch is flushed when it holds this many events.
const bulkBatch = 1000

// minPerTrip is B8-batch's bar (ours): at least this many events per
// InsertMany on average, or half a flush interval's arrivals when fewer
// arrive. The untouched exercise sends 1; bulk.js up to 1000.
var minPerTrip = course.AtLeast(100)

// whyNot ends a claim that did not reproduce with why, in both languages.
func whyNot(c *result.Claim, en, vi string, args ...any) {
	if c.Reproduced != nil && !*c.Reproduced {
		c.MeasureMore(" — why: "+en, " — vì sao: "+vi, args...)
	}
}

// perTrip is bulk's events per InsertMany and B8-batch's bar for it; 0, 0
// when not measured.
func perTrip(b *result.Run) (per, bar float64) {
	trips := extra(b, result.DBRoundTripsPerReq)
	if trips == 0 {
		return 0, 0
	}
	return 1 / trips, min(minPerTrip.V, extra(b, result.AcceptedPerS)*flushInterval.Seconds()/2)
}

// notBatching ends a claim the store would otherwise bound with the
// learner's cause when bulk does not batch yet: the store is not to blame.
// It says whether it did.
func notBatching(c *result.Claim, b *result.Run) bool {
	if per, bar := perTrip(b); per == 0 || per >= bar {
		return false
	}
	whyNot(c, "bulk does not batch yet (see B8-batch)", "bulk chưa ghi theo lô (xem B8-batch)")
	return true
}

// batchClaim: B8-batch, the batcher's own counts.
func batchClaim(r *result.Result) result.Claim {
	c := result.Claim{ID: "B8-batch", Measured: "not measured",
		Source:  result.Ours("the method of the author's bulk.js at " + result.RepoCommit + ": one insertMany per 1000 events or 1000 ms"),
		Article: "a batcher writes one InsertMany per batch (bulk.js: 1000 events or 1000 ms), not one insert per event: round trips per event fall from 1 towards 1/1000, and nothing accepted is lost",
		Vi: result.ClaimLines{
			Text: "batcher ghi một lệnh InsertMany cho mỗi lô (bulk.js: 1000 event hoặc 1000 ms), không phải một lệnh insert cho mỗi event: round trip mỗi event giảm từ 1 xuống gần 1/1000, và không event nào đã nhận bị mất",
		}}
	c.Tolerate("%s events per InsertMany on average (ours; half a flush interval's arrivals when fewer arrive); every accepted event persisted, none refused",
		"trung bình %s event mỗi InsertMany (của workshop; nếu event đến thưa hơn thì là số event đến trong nửa chu kỳ flush); mọi event đã nhận đều được ghi xuống, không event nào bị từ chối", minPerTrip)
	c.Rows, c.LooseRate = []course.Variant{course.Bulk}, true // counts alone until a rate sets the bar (rateBar)
	b, s := find(r, course.Bulk), find(r, course.Sync)
	per, bar := perTrip(b)
	if per == 0 {
		return c
	}
	trips := 1 / per
	lost := max(0, extra(b, result.Accepted)-extra(b, result.Persisted))
	c.Measure("bulk %.1f events per InsertMany (%.4f round trips per request; sync %.2f)",
		"bulk %.1f event mỗi InsertMany (%.4f round trip mỗi request; sync %.2f)", per, trips, extra(s, result.DBRoundTripsPerReq))
	if b.CountedAt == "services" { // an original counts nothing itself: our division of two counts taken outside it
		c.MeasureMore("; round trips = inserts MongoDB counted (serverStatus) ÷ requests the load driver got answered, our arithmetic",
			"; round trip = số lệnh insert MongoDB đếm (serverStatus) ÷ số request driver tạo tải được trả lời, phép tính của workshop")
	}
	if lost == 0 { // both counted over the row's same events (load.Measure)
		c.MeasureMore("; all %.0f accepted persisted", "; cả %.0f event đã nhận đều được ghi xuống", extra(b, result.Accepted))
	} else {
		c.MeasureMore("; accepted %.0f, persisted %.0f", "; nhận %.0f, ghi xuống %.0f", extra(b, result.Accepted), extra(b, result.Persisted))
	}
	c.MeasureMore(", %.0f refused, %d HTTP errors", ", %.0f bị từ chối, %d lỗi HTTP", extra(b, result.Rejected), b.Errors)
	rateBar(&c, bar)
	c.Reproduced = result.Verdict(per >= bar && lost == 0 && extra(b, result.Rejected) == 0 && b.Errors == 0)
	if per < bar {
		whyNot(&c, "your run flushes %.1f events at a time: it must wait for %d or the interval (exercise.go)",
			"code của bạn flush mỗi lần %.1f event: nó phải chờ đủ %d event hoặc hết chu kỳ flush (exercise.go)", per, bulkBatch)
		return c
	}
	whyNot(&c, "not every accepted event was persisted", "có event đã nhận mà không được ghi xuống")
	return c
}

// rateBar says when B8-batch's bar came from bulk's arrival rate (fewer
// than two bars' worth of events a second arrived), not from the count
// minPerTrip. Only then does the verdict rest on a rate a busy machine
// moves, and only then is it withheld there (LooseRate off): the line says
// so, so a learner sees which part was withheld. With the count bar, as on
// any laptop that accepts a few hundred events a second, the verdict is
// the batcher's counts alone and a busy machine keeps it (a learner's
// right answer once read "not judged (machine busy)" at 918 events per trip).
func rateBar(c *result.Claim, bar float64) {
	if bar >= minPerTrip.V {
		return
	}
	c.LooseRate = false
	c.MeasureMore("; the bar here is half a flush interval's arrivals, %.1f events (fewer than %.0f events/s arrived): a rate, which a busy machine withholds",
		"; mức cho phép ở đây là số event đến trong nửa chu kỳ flush, %.1f event (đến ít hơn %.0f event/s): đây là tốc độ, nên máy bận thì không xét",
		bar, 2*minPerTrip.V/flushInterval.Seconds())
}

// drainIntervals is B8-ops's slack on bulk's additional time (ours), in
// flush intervals, beside a full buffer at raw InsertMany's rate.
const drainIntervals course.Factor = 1.5

// bulkRateClaim: B8-ops, rows 5 and 9: bulk's persisted rate against
// sync's on the same server, and its additional time.
func bulkRateClaim(r *result.Result) result.Claim {
	sy, bu := authorRows[course.Sync], authorRows[course.Bulk]
	theirs := bu.OpsRPS / sy.ops()
	c := result.Claim{ID: "B8-ops", Measured: "not measured", Rows: []course.Variant{course.Sync, course.Bulk, course.RawBulk},
		Source:  result.Repo(`README "Test Result" rows 5 and 9 (Express: Insert Sync, Insert Bulk) at `+result.RepoCommit, fmt.Sprintf("%.2f", theirs)),
		Article: fmt.Sprintf("insert_bulk persists %.0f ops/s = %.2f× insert_sync's %.0f (our arithmetic), and is done %.0f s after the load", bu.OpsRPS, theirs, sy.ops(), bu.AddS),
		Vi: result.ClaimLines{
			Text: fmt.Sprintf("insert_bulk ghi xuống %.0f ops/s = %.2f× con số %.0f của insert_sync (phép tính của workshop), và xong việc %.0f s sau khi hết tải", bu.OpsRPS, theirs, sy.ops(), bu.AddS),
		}}
	asTheirs := course.Bound{Op: "≥", V: theirs, Places: 2}
	s, b := find(r, course.Sync), find(r, course.Bulk)
	rawBulk := persisted(r, course.RawBulk)
	if b != nil && rawBulk == 0 { // the bar below has no buffer term: the text says so, not a term it lacks
		c.Tolerate("bulk persists %s sync on the same server (the author's ratio as is); additional time ≤ %s flush intervals (ours; no raw InsertMany row on this stack, so no full-buffer term)",
			"bulk ghi xuống %s sync trên cùng server (giữ nguyên tỉ lệ của tác giả); additional time ≤ %s chu kỳ flush (của workshop; stack này không có hàng raw InsertMany, nên không cộng một buffer đầy)",
			asTheirs.Times(), drainIntervals)
	} else {
		c.Tolerate("bulk persists %s sync on the same server (the author's ratio as is); additional time ≤ %s flush intervals + a full buffer at raw InsertMany's rate (ours)",
			"bulk ghi xuống %s sync trên cùng server (giữ nguyên tỉ lệ của tác giả); additional time ≤ %s chu kỳ flush + một buffer đầy ở tốc độ raw InsertMany (của workshop)",
			asTheirs.Times(), drainIntervals)
	}
	ps := persisted(r, course.Sync)
	if s == nil || b == nil || ps == 0 {
		return c
	}
	y, add := persisted(r, course.Bulk)/ps, extra(b, result.AdditionalS)
	drain := float64(drainIntervals)*flushInterval.Seconds() + ratio(bulkBuffer, rawBulk) // the last partial batch and half an interval, a full buffer
	c.Measure("bulk persisted %.0f/s = %.2f× sync's %.0f/s; additional time %.2f s (the bar %.2f s)",
		"bulk ghi xuống %.0f/s = %.2f× con số %.0f/s của sync; additional time %.2f s (mức cho phép %.2f s)",
		persisted(r, course.Bulk), y, ps, add, drain)
	rs := find(r, course.RawSeq)
	if rs != nil && rs.RPS > 0 && rawBulk > 0 { // what the store allows bulk ÷ sync
		c.MeasureMore("; the database alone: raw InsertMany ÷ one at a time %.1f×", "; riêng database: raw InsertMany ÷ từng cái một %.1f×",
			rawBulk/rs.RPS)
	}
	rateOK, timeOK := asTheirs.Holds(y), add <= drain
	c.Reproduced = result.Verdict(rateOK && timeOK && b.Errors == 0)
	if notBatching(&c, b) {
		return c
	}
	bulkRateWhy(&c, rateOK, timeOK, b.Errors)
	return c
}

// bulkRateWhy ends B8-ops's line, when it did not reproduce, with the half
// that missed: the ratio, the additional time, or both (or HTTP errors).
func bulkRateWhy(c *result.Claim, rateOK, timeOK bool, errs int64) {
	switch {
	case errs > 0:
		whyNot(c, "%d requests failed", "%d request bị lỗi", errs)
	case !rateOK && !timeOK:
		whyNot(c, "the batches are right; the database and the machine set both the rate and the additional time",
			"lô thì đúng rồi; cả tốc độ lẫn additional time là do database và máy quyết định")
	case !rateOK:
		whyNot(c, "the batches are right and the additional time is within its bar; the database and the machine set the rate",
			"lô thì đúng rồi, additional time cũng trong mức cho phép; tốc độ là do database và máy quyết định")
	default:
		whyNot(c, "the ratio holds; the additional time is over its bar: what was left at the load's end was written slower than the bar's rate (the database and the machine)",
			"tỉ lệ thì đạt; additional time vượt mức cho phép: phần còn lại lúc hết tải được ghi chậm hơn tốc độ mà mức cho phép tính (do database và máy)")
	}
}

// bulkCeiling is B8's tolerance (ours): bulk's accepted rate ÷ its ceiling.
var bulkCeiling = course.AtLeast(0.8)

// bulkCeilingClaim: B8, rows 2 and 9: bulk answers about as fast as the
// empty POST. Its ceiling here is the database's InsertMany rate, so it
// is the store's and the machine's claim, not the batcher's.
func bulkCeilingClaim(r *result.Result) result.Claim {
	ep, bu := authorRows[course.EmptyPost], authorRows[course.Bulk]
	theirs := bu.HTTPRPS / ep.HTTPRPS
	c := result.Claim{ID: "B8", Measured: "not measured", Rows: []course.Variant{course.EmptyPost, course.Bulk, course.RawBulk},
		Source:  result.Repo(`README "Test Result" rows 2 and 9 (Express: Empty POST, Insert Bulk) at `+result.RepoCommit, fmt.Sprintf("%.2f", theirs)),
		Article: fmt.Sprintf("insert_bulk answers %.0f req/s = %.2f× the empty POST's %.0f (our arithmetic): buffering costs the request almost nothing", bu.HTTPRPS, theirs, ep.HTTPRPS),
		Vi: result.ClaimLines{
			Text: fmt.Sprintf("insert_bulk trả lời %.0f req/s = %.2f× con số %.0f của empty POST (phép tính của workshop): gom buffer gần như không làm request tốn thêm gì", bu.HTTPRPS, theirs, ep.HTTPRPS),
		}}
	c.Tolerate("bulk accepts %s the lower of its ceilings, the empty POST and raw InsertMany (%s ours; the author's ceiling was the empty POST, the lower on Express)",
		"bulk nhận %s mức trần thấp hơn của nó, empty POST hoặc raw InsertMany (%s là của workshop; trên Express, mức trần của tác giả là empty POST, cũng là mức thấp hơn)",
		bulkCeiling.Times(), bulkCeiling.Figure())
	e, b := find(r, course.EmptyPost), find(r, course.Bulk)
	if e == nil || b == nil || e.RPS == 0 {
		return c
	}
	ceiling, which, whichVi := e.RPS, "the empty POST", "empty POST"
	rb := find(r, course.RawBulk)
	if rb != nil && rb.RPS > 0 && rb.RPS < ceiling {
		ceiling, which, whichVi = rb.RPS, "raw InsertMany", "raw InsertMany"
	}
	acc := extra(b, result.AcceptedPerS)
	c.Measured = fmt.Sprintf("bulk accepted %.0f events/s = %.2f× %s (%.0f/s", acc, acc/ceiling, which, ceiling)
	c.Vi.Measured = fmt.Sprintf("bulk nhận %.0f event/s = %.2f× %s (%.0f/s", acc, acc/ceiling, whichVi, ceiling)
	if which != "the empty POST" { // the other ceiling, beside the one it is lower than
		c.MeasureMore("; the empty POST %.0f req/s", "; empty POST %.0f req/s", e.RPS)
	}
	c.MeasureMore("); %.0f%% of requests told to retry later", "); %.0f%% request bị bảo thử lại sau", 100*extra(b, result.Status503Share))
	c.Reproduced = result.Verdict(bulkCeiling.Holds(acc/ceiling) && b.Errors == 0)
	if notBatching(&c, b) || which != "raw InsertMany" {
		return c
	}
	if p := r.Machine.CPUPlan; slices.ContainsFunc(p.Services, func(cpu int) bool { return slices.Contains(p.Driver, cpu) }) {
		whyNot(&c, "the database is the ceiling here, and under HTTP load it shares its CPU with the load driver",
			"ở đây database là mức trần, và khi có tải HTTP nó phải chia CPU với driver tạo tải")
		return c
	}
	whyNot(&c, "the database is the ceiling here, and under HTTP load it shares the machine with the server",
		"ở đây database là mức trần, và khi có tải HTTP nó phải chia máy với server")
	return c
}

// bulkCPUClaim: B8-cpu, rows 5 and 9's "Mongo CPU", per event.
func bulkCPUClaim(r *result.Result) result.Claim {
	sy, bu := authorRows[course.Sync], authorRows[course.Bulk]
	ratio, least := authorCPURatio()
	cpu := result.Claim{ID: "B8-cpu", Measured: "not measured", Rows: []course.Variant{course.Sync, course.Bulk},
		Source:  result.Repo(`README "Test Result" rows 5 and 9 (Express Insert Sync and Insert Bulk: "Mongo CPU") at `+result.RepoCommit, fmt.Sprintf("%.0f", ratio)),
		Article: fmt.Sprintf("bulk cuts the database's work: Mongo CPU %.0f %% for sync over %.1f s, %.0f %% for bulk over %.1f s + %.0f s, for 100k events each: ÷ %.0f per event, our arithmetic", sy.MongoCPU, sy.HTTPS, bu.MongoCPU, bu.HTTPS, bu.AddS, ratio),
		Vi: result.ClaimLines{
			Text: fmt.Sprintf("bulk giảm việc của database: Mongo CPU %.0f %% với sync trong %.1f s, %.0f %% với bulk trong %.1f s + %.0f s, mỗi bên 100k event: ÷ %.0f trên mỗi event, phép tính của workshop", sy.MongoCPU, sy.HTTPS, bu.MongoCPU, bu.HTTPS, bu.AddS, ratio),
		}}
	bound := course.Bound{Op: "≥", V: least, Places: 1}
	cpu.Tolerate("database CPU per event, sync ÷ bulk, %s: the least the author's whole-percent column allows (%s %% and %s %%)",
		"CPU của database mỗi event, sync ÷ bulk, %s: mức thấp nhất mà cột phần trăm làm tròn của tác giả cho phép (%s %% và %s %%)",
		bound, course.Fixed(sy.MongoCPU-0.5, 1), course.Fixed(bu.MongoCPU+0.5, 1))
	s, b := find(r, course.Sync), find(r, course.Bulk)
	if s == nil || b == nil || extra(b, result.DBCPUusPerDoc) == 0 || extra(s, result.DBCPUusPerDoc) == 0 {
		return cpu
	}
	x := extra(s, result.DBCPUusPerDoc) / extra(b, result.DBCPUusPerDoc)
	cpu.Measure("database CPU per event: sync %.0f µs (%.0f %% of a core), bulk %.0f µs (%.0f %%): ÷ %.1f (the author's ÷ %.0f: %.0f µs and %.1f µs, our arithmetic)",
		"CPU của database mỗi event: sync %.0f µs (%.0f %% một core), bulk %.0f µs (%.0f %%): ÷ %.1f (của tác giả ÷ %.0f: %.0f µs và %.1f µs, phép tính của workshop)",
		extra(s, result.DBCPUusPerDoc), 100*extra(s, result.DBCPUShare), extra(b, result.DBCPUusPerDoc), 100*extra(b, result.DBCPUShare), x, ratio, sy.dbCPUus(0), bu.dbCPUus(0))
	cpu.Reproduced = result.Verdict(bound.Holds(x))
	if notBatching(&cpu, b) {
		return cpu
	}
	if one, many := find(r, course.Raw100), find(r, course.RawBulk); extra(one, result.DBCPUusPerDoc) > 0 && extra(many, result.DBCPUusPerDoc) > 0 {
		whyNot(&cpu, "the store bounds it: with no HTTP at all, an InsertMany of 1000 (raw-bulk) saves it only ÷ %.1f per document against inserts 100 at a time, sync's shape (raw-100): %.0f → %.0f µs",
			"chính database là giới hạn: không có HTTP, một InsertMany 1000 document (raw-bulk) cũng chỉ giảm được ÷ %.1f mỗi document so với insert 100 cái một lúc, dáng của sync (raw-100): %.0f → %.0f µs",
			extra(one, result.DBCPUusPerDoc)/extra(many, result.DBCPUusPerDoc), extra(one, result.DBCPUusPerDoc), extra(many, result.DBCPUusPerDoc))
	}
	return cpu
}

// articleRaw100CPU is the MongoDB CPU article B's text gives for the raw
// inserts 100 at a time ("52% → 130%"); the repository's README row 4 says
// 135 %. B4 is the article's claim, so its arithmetic uses the article's,
// and its lines name both sources, since the table prints row 4's.
const articleRaw100CPU = 130

// rawFactor is B4's slack (ours): the author's ratio within this factor.
const rawFactor = 2

// rawConcurrencyClaim: B4, the article's raw rows 3 and 4.
func rawConcurrencyClaim(r *result.Result) result.Claim {
	seq, hundred := authorRows[course.RawSeq], authorRows[course.Raw100]
	readme := hundred // row 4 as the README table prints it, beside the table's own figures
	hundred.MongoCPU = articleRaw100CPU
	theirs := fmt.Sprintf("%.2f", hundred.HTTPRPS/seq.HTTPRPS)
	const quote = "thay vì tốc độ tăng lên 100 lần như chúng ta nghĩ (kiểu con đường có 100 làn xe) thì ở đây tốc độ chỉ tăng khoảng 3 lần"
	mid := hundred.HTTPRPS / seq.HTTPRPS
	band := course.Band{Lo: mid / rawFactor, Hi: mid * rawFactor, Places: 1}
	c := result.Claim{ID: "B4", Measured: "not measured", Rows: []course.Variant{course.RawSeq, course.Raw100},
		Source:  result.Article("B", quote, theirs),
		Article: fmt.Sprintf("raw inserts 100 at a time: %.0f/s against %.0f/s one at a time (%s×, our arithmetic): about 3×, not 100×; a CPU, the library's, not the connections, is the limit, and Mongo CPU goes from 52%% to 130%%", hundred.HTTPRPS, seq.HTTPRPS, theirs),
		Vi: result.ClaimLines{
			Text: fmt.Sprintf("raw insert 100 cái một lúc: %.0f/s so với %.0f/s khi insert từng cái (%s×, phép tính của workshop): “%s”; giới hạn nằm ở CPU của thư viện chứ không phải ở số kết nối, và Mongo CPU đi từ 52%% lên 130%%", hundred.HTTPRPS, seq.HTTPRPS, theirs, quote),
		}}
	c.Tolerate("raw ×100 ÷ one at a time %s: the author's "+theirs+"× (our arithmetic) within a factor of %s (ours), where a CPU, not the connections, is the limit",
		"raw ×100 ÷ từng cái một %[1]s: "+theirs+"× của tác giả (phép tính của workshop), lệch không quá gấp đôi (của workshop), khi giới hạn là CPU chứ không phải số kết nối",
		band, course.Factor(rawFactor))
	rs, r100 := find(r, course.RawSeq), find(r, course.Raw100)
	if rs == nil || r100 == nil || rs.RPS == 0 {
		return c
	}
	x := r100.RPS / rs.RPS
	c.Measure("raw ×100 %.0f inserts/s vs one at a time %.0f/s = %.2f×", "raw ×100 %.0f insert/s so với từng cái một %.0f/s = %.2f×", r100.RPS, rs.RPS, x)
	if a, b := extra(rs, result.DBCPUusPerDoc), extra(r100, result.DBCPUusPerDoc); a > 0 && b > 0 {
		c.MeasureMore("; the database's CPU: %.0f µs per insert one at a time (%.0f %% of a core), %.0f µs 100 at a time (%.0f %%); the author's %.0f → %.0f µs (our arithmetic, from the article's %.0f %% → %.0f %%; the table's row 4, from the repository's README table, reads %.0f %% and so %.0f µs)",
			"; CPU của database: %.0f µs mỗi insert khi insert từng cái (%.0f %% một core), %.0f µs khi 100 cái một lúc (%.0f %%); của tác giả %.0f → %.0f µs (phép tính của workshop, từ %.0f %% → %.0f %% trong bài viết; hàng 4 của bảng, lấy từ bảng README của repo, ghi %.0f %% nên ra %.0f µs)",
			a, 100*extra(rs, result.DBCPUShare), b, 100*extra(r100, result.DBCPUShare), seq.dbCPUus(0), hundred.dbCPUus(0),
			seq.MongoCPU, hundred.MongoCPU, readme.MongoCPU, readme.dbCPUus(0))
	}
	c.Reproduced = result.Verdict(band.Holds(x) && r100.Errors == 0 && rs.Errors == 0)
	if x < mid && strings.Contains(r.Machine.Mongo, "FerretDB") {
		onFerretDB(&c)
		return c
	}
	if x >= band.Lo {
		return c
	}
	whyNot(&c, "the store bounds concurrent inserts here, not a client's CPU as in the article (no HTTP in these rows)",
		"ở đây chính database chặn các lệnh insert đồng thời, chứ không phải CPU của client như trong bài (các hàng này không qua HTTP)")
	return c
}

// onFerretDB ends B4's line, below the author's ratio on FerretDB (the
// workshop's store without Docker or a mongod), with where it was taken,
// why it falls short, and what a real mongod may change: a figure we have
// not measured, so none is given.
func onFerretDB(c *result.Claim) {
	const en = "taken on FerretDB, below the author's ratio: the CPU per insert above is the store's, and here the store, not the client, is the likelier limit (our reading); " +
		"a real mongod (`make up STACK=compose`, or a local mongod) cost the author less per insert, so there the client's CPU, the article's limit, may come first: not measured here"
	const vi = "đo trên FerretDB, thấp hơn tỉ lệ của tác giả: CPU mỗi insert ở trên là CPU của database, và ở đây nhiều khả năng giới hạn nằm ở chính database chứ không phải client (cách đọc của workshop); " +
		"một mongod thật (`make up STACK=compose`, hoặc mongod cài trên máy) trên máy tác giả tốn ít CPU hơn cho mỗi insert, nên ở đó CPU của client (giới hạn mà bài viết nói tới) có thể chạm trần trước: workshop chưa đo điều này"
	if c.Reproduced != nil && !*c.Reproduced {
		whyNot(c, en, vi)
		return
	}
	c.MeasureMore("; "+en, "; "+vi)
}
