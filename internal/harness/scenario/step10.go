package scenario

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/given/routes"
	"github.com/peakload/workshop/internal/harness/balancer"
	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/load"
	"github.com/peakload/workshop/internal/harness/result"
)

// Step 10: the step-5 server as N replicas behind HAProxy. The rows are
// judged by counters summed over the replicas' /metrics, never by req/s:
// every replica shares the server's CPU(s), so throughput cannot grow
// with N on the workshop's machine.
//
//   - single: one server, no balancer (step 5's shape, the reference);
//   - rr-N: round-robin over N replicas — each one warms its own copy of
//     every hot item, so the burst tier loads each item N times per TTL;
//   - hash-N: HAProxy hashes the item's path on a consistent ring — one
//     replica per item, the loads of one process again;
//   - hash-N-stop: the same, one replica stopped a third of the way in
//     (the dip);
//   - stale-ttl / stale-pubsub: no load; items are changed through the
//     balancer and every replica is polled until it serves the new ETag
//     (the invalidation delay), without and with the exercise.
func init() {
	register(10, Step{
		// make step-10 profile: one replica under the item load (the fleet
		// rows and the drills start their own processes).
		Profile: course.Single,
		Variants: func(env Env) []load.Variant {
			route := routes.GET(scaleRoute)
			vs := []load.Variant{{Name: course.Single, Route: route, Prepare: itemRequest(env, scaleRoute), Setup: flushRedis(env)}}
			ns := env.Params.ScaleOut.Replicas
			for _, n := range ns {
				vs = append(vs, fleetVariant(env, course.RoundRobinRow(n), n, balancer.RoundRobin, false))
			}
			n := slices.Max(ns)
			vs = append(vs,
				fleetVariant(env, course.HashRow(n), n, balancer.ByItem, false),
				fleetVariant(env, course.HashStopRow(n), n, balancer.ByItem, true),
				staleVariant(env, course.StaleTTL, n, false),
				staleVariant(env, course.StalePubSub, n, true))
			return vs
		},
		Claims:     func(r *result.Result, env Env) []result.Claim { return scaleOutClaims(r, env) },
		Tables:     scaleOutTables,
		Ours:       step10Ours,
		Rewards:    []string{"S10c"}, // stale window after a change, with invalidation
		KeepOnBusy: []string{"S10a", "S10b", "S10c"},
	})
}

// scaleRoute is the replicas' item route.
const scaleRoute = balancer.ItemRoute

// fleetVariant measures n replicas behind the balancer under the usual
// load (internal/harness/balancer drives it and sums the replicas' counters);
// stopOne stops the last replica a third of the way through the window.
func fleetVariant(env Env, name course.Variant, n int, bal balancer.Balance, stopOne bool) load.Variant {
	v := load.Variant{Name: name, Route: routes.GET(scaleRoute), Prepare: itemRequest(env, scaleRoute), Setup: flushRedis(env)}
	loading := balancer.Load{Replicas: n, Balance: bal, StopOne: stopOne, Params: env.Params}
	v.Direct = func(ctx context.Context, o load.Options) (result.Run, error) {
		return balancer.RunLoad(ctx, env.Fleet, loading, o, v)
	}
	return v
}

// changesChannel is internal/given/replica's Channel, the Redis channel on which
// a replica announces its changes (TestConstantsAreTheServers holds them
// equal), named here so the bench links no replica and its caches.
const changesChannel = "items:changed"

// staleVariant changes items through the balancer, then polls every
// replica directly, and records how long each kept serving the old ETag
// after the change was answered. Without invalidation every replica keeps
// its copy up to the burst TTL; with it, the listening replicas drop it at
// once, and the last replica — started not listening, as one that missed
// the announcements — shows that the TTL still bounds a lost message.
func staleVariant(env Env, name course.Variant, n int, invalidation bool) load.Variant {
	v := load.Variant{Name: name, Route: routes.POST(routes.Change), Setup: flushRedis(env)}
	v.Direct = func(ctx context.Context, o load.Options) (result.Run, error) {
		changes := env.Params.ScaleOut.Changes
		if env.Quick {
			changes = env.Params.ScaleOut.QuickChanges
		}
		return balancer.RunStale(ctx, env.Fleet, balancer.Stale{Replicas: n, Invalidation: invalidation, Changes: changes,
			IDs: env.Skew().HotIDs(), BurstTTL: env.Params.ForHitRatio(env.Params.Clock.BurstTTLS),
			Redis: env.Redis, Channel: changesChannel})
	}
	return v
}

// S10a's and S10b's tolerances (ours), on copies per item against one
// replica's; and S10c's slack (ours) for the replica that missed the
// announcement, beyond the burst TTL.
var (
	diluted  = course.AtLeast(2)
	restored = course.AtMost(1.5)
)

const missedSlackMS course.Factor = 100

// scaleOutClaims: article A's costs of an in-process cache once the API
// runs as several replicas, judged by counters.
func scaleOutClaims(r *result.Result, env Env) []result.Claim {
	n := slices.Max(env.Params.ScaleOut.Replicas)
	one, rr, hash := find(r, course.RoundRobinRow(1)), find(r, course.RoundRobinRow(n)), find(r, course.HashRow(n))
	const quote = "Horizontal scale dẫn đến hiệu quả cache giảm (cache hit ratio thấp)"
	bound := env.Params.ScaleOut.InvalidationBoundMS
	// Data table: the step's three claims S10a–S10c, each its ID, source and
	// words in both languages, shaped as every step's claims are.
	dilution := result.Claim{ID: "S10a", Measured: "not measured",
		Source:  result.OursFrom("A", quote, "article A lists it among a memory cache's costs, without a figure"),
		Article: "with several API instances each warms its own burst cache: the hit ratio is diluted (article A lists a lower hit ratio under horizontal scale among a memory cache's costs, without a figure)",
		Vi: result.ClaimLines{
			Text: "khi chạy nhiều instance API, mỗi instance tự làm ấm burst cache của riêng nó nên hit ratio bị pha loãng; bài A kể điều này trong số những cái giá phải trả khi dùng cache trong bộ nhớ, không kèm con số: “" + quote + "”",
		}}
	replicas := course.Factor(n)
	dilution.Tolerate("round-robin over %s replicas loads each item from Redis %s as often per TTL window as one replica behind the same balancer (copies per item; ideal ×%[1]s)",
		"round-robin qua %s replica thì trong mỗi khung TTL, mỗi item được load từ Redis nhiều %s so với một replica đứng sau cùng load balancer (số bản sao mỗi item; lý tưởng là ×%[1]s)",
		replicas, diluted.Times())
	restore := result.Claim{ID: "S10b", Measured: "not measured",
		Source:  result.Ours(""),
		Article: "routing by key at the load balancer (consistent hashing on the item id) keeps each hot item on one replica",
		Vi: result.ClaimLines{
			Text: "định tuyến theo key ngay ở load balancer (consistent hashing trên id của item) giữ mỗi item nóng ở đúng một replica",
		}}
	restore.Tolerate("hash routing over %s replicas: copies per item %s one replica's", "định tuyến theo hash qua %s replica: số bản sao mỗi item %s của một replica",
		replicas, restored.Times())
	stale := result.Claim{ID: "S10c", Measured: "not measured",
		Source:  result.Ours(""),
		Article: "the invalidation delay of an in-process cache is up to its TTL; announcing a change to every replica brings it down to milliseconds, and a replica that missed the announcement is still bounded by the TTL",
		Vi: result.ClaimLines{
			Text: "độ trễ invalidation của một cache nằm trong process có thể dài bằng TTL của nó; báo thay đổi cho mọi replica kéo độ trễ xuống còn vài ms, và replica lỡ mất thông báo thì vẫn chỉ trễ tối đa một TTL",
		}}
	stale.Tolerate("without invalidation some replica serves the old ETag %s ms after the change; with it no listening replica does, and the replica that missed it catches up within the burst TTL + %s ms",
		"không invalidation: có replica trả ETag cũ %s ms sau khi dữ liệu đổi; có invalidation: không replica nào đang nghe còn như vậy; replica lỡ thông báo bắt kịp trong burst TTL + %s ms",
		course.Above(bound), missedSlackMS)
	copies := func(x *result.Run) float64 { return extra(x, result.CopiesPerItem) }
	if one != nil && rr != nil && copies(one) > 0 {
		x := copies(rr) / copies(one)
		dilution.Measure("copies per item: 1 replica %.2f, %d round-robin %.2f (×%.1f); Redis loads per TTL window %.0f → %.0f; Redis GETs/request %.3f → %.3f",
			"số bản sao mỗi item: 1 replica %.2f, %d replica round-robin %.2f (×%.1f); số lần load từ Redis mỗi khung TTL %.0f → %.0f; Redis GET mỗi request %.3f → %.3f",
			copies(one), n, copies(rr), x, extra(one, result.RedisLoadsPerTTL), extra(rr, result.RedisLoadsPerTTL), extra(one, result.RedisGetsPerReq), extra(rr, result.RedisGetsPerReq))
		dilution.Reproduced = result.Verdict(one.Errors == 0 && rr.Errors == 0 && diluted.Holds(x))
	}
	if one != nil && hash != nil && copies(one) > 0 {
		x := copies(hash) / copies(one)
		restore.Measure("copies per item: 1 replica %.2f, %d hashed %.2f (×%.1f); Redis loads per TTL window %.0f; busiest replica's share %.0f%% (even: %.0f%%)",
			"số bản sao mỗi item: 1 replica %.2f, %d replica theo hash %.2f (×%.1f); số lần load từ Redis mỗi khung TTL %.0f; replica bận nhất nhận %.0f%% (chia đều: %.0f%%)",
			copies(one), n, copies(hash), x, extra(hash, result.RedisLoadsPerTTL), 100*busiest(hash, n), 100/float64(n))
		restore.Reproduced = result.Verdict(one.Errors == 0 && hash.Errors == 0 && restored.Holds(x))
	}
	ttl, ps := find(r, course.StaleTTL), find(r, course.StalePubSub)
	if ttl != nil && ps != nil && extra(ps, result.Changes) > 0 {
		slack := extra(ps, result.BurstTTLMS) + float64(missedSlackMS)
		stale.Measure("old ETag served after a change: without invalidation up to %.0f ms (mean %.0f); with pub/sub up to %.1f ms (mean %.1f) on the listening replicas, %.0f ms on the one that missed the announcements (burst TTL %.0f ms); forgets per change %.1f",
			"ETag cũ vẫn được trả sau một thay đổi: không có invalidation tới %.0f ms (trung bình %.0f); có pub/sub tới %.1f ms (trung bình %.1f) ở các replica đang lắng nghe, %.0f ms ở replica lỡ mất thông báo (burst TTL %.0f ms); số lần quên mỗi thay đổi %.1f (bao nhiêu replica bỏ bản sao của mình)",
			extra(ttl, result.StaleMSMax), extra(ttl, result.StaleMSMean), extra(ps, result.StaleMSMax), extra(ps, result.StaleMSMean), extra(ps, result.StaleMissedMSMax), extra(ps, result.BurstTTLMS), extra(ps, result.ForgetsPerChange))
		figures := course.Above(bound).Holds(extra(ttl, result.StaleMSMax)) &&
			course.AtMost(bound).Holds(extra(ps, result.StaleMSMax)) && extra(ps, result.StaleMissedMSMax) <= slack
		stale.Reproduced = result.Verdict(ttl.Errors == 0 && ps.Errors == 0 && figures)
		failedChanges(&stale, figures, ttl, ps)
	}
	// S10c reads the stale rows only: a busy `single` row is none of its
	// business (the stale rows record no bench window, so none is busy).
	stale.Rows = []course.Variant{course.StaleTTL, course.StalePubSub}
	for _, c := range []struct {
		claim *result.Claim
		rows  []*result.Run
	}{{&dilution, []*result.Run{one, rr}}, {&restore, []*result.Run{one, hash}}, {&stale, []*result.Run{ttl, ps}}} {
		failedRequests(c.claim, c.rows...)
	}
	return []result.Claim{dilution, restore, stale}
}

// failedChanges withholds S10c's verdict when some changes of its rows
// failed and others were measured. A failed change measures no stale
// window (the drill skips it), and on a loaded machine Redis times out
// r.Write's DEL or Change's PUBLISH whatever the answer (a Change that
// refuses the 200 then is right): such a row is a smaller sample, not a
// verdict on the answer. A row whose every change failed measured
// nothing and stays NOT reproduced: a Change that always fails is the
// answer's fault.
func failedChanges(c *result.Claim, figures bool, rows ...*result.Run) {
	var failed []string
	for _, x := range rows {
		if x.Errors >= x.Requests {
			return
		}
		if x.Errors > 0 {
			failed = append(failed, fmt.Sprintf("%s %d of %d (%s)", x.Variant, x.Errors, x.Requests, x.FirstError))
		}
	}
	if len(failed) == 0 {
		return
	}
	c.Unjudge("some changes failed, and a failed change measures no stale window: %s; on a loaded machine Redis times out r.Write's DEL or Change's PUBLISH whatever the answer: run the bench again",
		"một số thay đổi bị lỗi, mà thay đổi lỗi thì không đo được cửa sổ dữ liệu cũ: %s; trên máy đang tải nặng, Redis có thể timeout lệnh DEL của r.Write hay PUBLISH của Change dù đáp án đúng: hãy chạy lại bench",
		strings.Join(failed, ", "))
	c.IfJudged = result.Verdict(figures)
}

// failedRequests says, on a judged claim's measured line, which of its
// rows had failed requests: a row with any is NOT reproduced whatever its
// figures read, and the line must show why.
func failedRequests(c *result.Claim, rows ...*result.Run) {
	if c.Reproduced == nil {
		return
	}
	var failed []string
	for _, x := range rows {
		if x != nil && x.Errors > 0 {
			failed = append(failed, fmt.Sprintf("%s %d", x.Variant, x.Errors))
		}
	}
	if len(failed) > 0 {
		c.MeasureMore("; failed requests (a row with any is not reproduced): %s", "; request lỗi (hàng nào có lỗi thì không tái hiện được): %s", strings.Join(failed, ", "))
	}
}

// busiest is the largest share of requests one replica served.
func busiest(x *result.Run, n int) float64 {
	var m float64
	for i := 1; i <= n; i++ {
		m = max(m, extra(x, result.ShareOfReplica(i)))
	}
	return m
}

// scaleOutTables: what each replica did, the dip, the stale window.
func scaleOutTables(r *result.Result) []result.Table {
	en := messages.English
	load := result.Table{Title: en.T("table.replicas.title"),
		Header: en.Words("table.col.variant", "table.replicas.replicas", "table.replicas.memory_hit", "table.replicas.redis_gets", "table.replicas.loads",
			"table.replicas.copies", "table.col.db_q", "table.replicas.shares", "table.replicas.rss", "table.replicas.cold_start"),
		Notes: en.Words("table.replicas.note_copies", "table.replicas.note_shares")}
	for _, x := range r.Runs {
		if x.Extra == nil || (x.Variant != "single" && x.Extra[result.Replicas] == 0) || x.Extra[result.Changes] > 0 {
			continue
		}
		n := int(x.Extra[result.Replicas])
		shares := "100%"
		if n > 0 {
			var ps []string
			for i := 1; i <= n; i++ {
				ps = append(ps, fmt.Sprintf("%.0f%%", 100*x.Extra[result.ShareOfReplica(i)]))
			}
			shares = strings.Join(ps, " / ")
		}
		rss, start := "-", "-"
		if v := x.Extra[result.ReplicaRSSMB]; v > 0 {
			rss = fmt.Sprintf("%.0f", v)
		} else if x.ServerPeakRSSMB > 0 {
			rss = fmt.Sprintf("%.0f", x.ServerPeakRSSMB)
		}
		if v := x.Extra[result.ColdStartMS]; v > 0 {
			start = fmt.Sprintf("%.0f", v)
		}
		reps := en.T("table.replicas.single", 1)
		if n > 0 {
			reps = strconv.Itoa(n)
		}
		load.Rows = append(load.Rows, []string{string(x.Variant), reps, fmt.Sprintf("%.1f%%", 100*x.Extra[result.MemoryHitRatio]),
			fmt.Sprintf("%.3f", x.Extra[result.RedisGetsPerReq]), orDash(x.Extra, result.RedisLoadsPerTTL, "%.0f"),
			orDash(x.Extra, result.CopiesPerItem, "%.2f"), fmt.Sprintf("%.3f", x.PerRequest.DBQueries), shares, rss, start})
	}
	tables := []result.Table{load}
	for _, x := range r.Runs {
		if _, ok := x.Extra[result.HitRatioIn(result.BeforeStop)]; !ok {
			continue
		}
		t := result.Table{Title: en.T("table.stop.title", x.Variant),
			Header: append(en.Words("table.stop.window"), "req/s", en.T("table.replicas.loads"), en.T("table.replicas.copies"), en.T("table.stop.hit_ratio")),
			Notes:  []string{en.T("table.stop.note_window", x.Extra[result.StopMS])}}
		for _, ph := range []struct {
			key  result.Phase
			name string
		}{{result.BeforeStop, "table.stop.before"}, {result.TwoTTLAfterStop, "table.stop.after"}, {result.RestAfterStop, "table.stop.rest"}} {
			t.Rows = append(t.Rows, []string{en.T(ph.name), fmt.Sprintf("%.0f", x.Extra[result.RPSIn(ph.key)]), fmt.Sprintf("%.0f", x.Extra[result.RedisLoadsPerTTLIn(ph.key)]),
				fmt.Sprintf("%.2f", x.Extra[result.CopiesPerItemIn(ph.key)]), fmt.Sprintf("%.2f%%", 100*x.Extra[result.HitRatioIn(ph.key)])})
		}
		t.Notes = append(t.Notes, en.T("table.stop.note_errors", x.Errors))
		tables = append(tables, t)
	}
	stale := result.Table{Title: en.T("table.stale.title"),
		Header: en.Words("table.col.variant", "table.stale.changes", "table.stale.max", "table.col.mean_ms", "table.stale.missed", "table.stale.forgets")}
	for _, x := range r.Runs {
		if x.Extra[result.Changes] == 0 {
			continue
		}
		missed := "-"
		if v, ok := x.Extra[result.StaleMissedMSMax]; ok {
			missed = fmt.Sprintf("%.0f", v)
		}
		stale.Rows = append(stale.Rows, []string{string(x.Variant), fmt.Sprintf("%.0f", x.Extra[result.Changes]), fmt.Sprintf("%.1f", x.Extra[result.StaleMSMax]),
			fmt.Sprintf("%.1f", x.Extra[result.StaleMSMean]), missed, fmt.Sprintf("%.1f", x.Extra[result.ForgetsPerChange])})
	}
	if len(stale.Rows) > 0 {
		tables = append(tables, stale)
	}
	return tables
}

// orDash formats extra[key], or "-" for a row that does not have it (the
// single server's row is measured by the shared bench path).
func orDash(extra map[result.Key]float64, key result.Key, format string) string {
	if v, ok := extra[key]; ok {
		return fmt.Sprintf(format, v)
	}
	return "-"
}

// step10Ours: the copies per item round-robin and hashed, against one
// replica's, and how long an old ETag was served without and with pub/sub.
func step10Ours(r *result.Result, env Env, l messages.Lang) string {
	p := env.Params
	n := slices.Max(p.ScaleOut.Replicas)
	copies := func(x *result.Run) float64 { return x.Extra[result.CopiesPerItem] }
	one := Field(find(r, course.RoundRobinRow(1)), copies)
	stale := func(x *result.Run) float64 { return x.Extra[result.StaleMSMax] }
	return Say(l, "Redis loads per item ×%.1f round-robin, ×%.1f hashed (%d replicas); old ETag served ≤ %.0f → %.1f ms",
		"số lần load Redis mỗi item ×%.1f round-robin, ×%.1f khi hash theo item (%d replica); ETag cũ còn được phục vụ ≤ %.0f → %.1f ms",
		Field(find(r, course.RoundRobinRow(n)), copies)/one, Field(find(r, course.HashRow(n)), copies)/one, n,
		Field(find(r, course.StaleTTL), stale), Field(find(r, course.StalePubSub), stale))
}
