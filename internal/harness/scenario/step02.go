package scenario

import (
	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/given/routes"
	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/load"
	"github.com/peakload/workshop/internal/harness/result"
)

// Step 2: the direct read and the cache-aside read of the same hot-skewed
// ids, with the worker changing the live streams, beside the ceiling.
// Data table: step 2's rows, the ceiling first, and its claims, as every step declares its own.
func init() {
	register(2, Step{
		Variants: func(env Env) []load.Variant {
			p := env.Params
			return withOriginal(env, []load.Variant{
				{Name: course.EmptyGet, Route: routes.GET(routes.Empty), Path: routes.Empty},
				{Name: course.DirectDB, Route: routes.GET(routes.Items), Prepare: itemRequest(env, routes.Items)},
				{Name: course.CacheAside, Route: routes.GET(routes.Cached), Prepare: itemRequest(env, routes.Cached), Setup: flushRedis(env)},
			}, onFastify, fastify(p.ForHitRatio(p.Clock.RedisTTLS), 0)) // step 2's main.go: the clock of hit ratios
		},
		Claims:  onEachStack(course.CacheAside, cacheAsideClaim),
		Ours:    step2Ours,
		Rewards: []string{"A2"}, // DB queries per request, hit ratio, cache-aside ÷ direct-db
	})
}

// quiteGood is A2's reading of "quite good" (ours): cache-aside ÷ direct-db.
var quiteGood = course.AtLeast(5)

// cacheAsideClaim: A2 — "quite good" against the direct read, judged on
// stack s's rows.
func cacheAsideClaim(r *result.Result, _ Env, s onStack) result.Claim {
	// Data table: claim A2's declaration: its ID, source and words
	// in both languages, shaped as every step's claims are.
	c := result.Claim{
		ID:       s.id("A2"),
		Source:   result.Article("A", "Chà, tốc độ khá tốt rồi đúng không?"),
		Article:  "Redis get-or-set (TTL 30 s) in front of the item query: the speed is \"quite good\" (khá tốt), after the direct read's 645 req/s; the cached read's figure is only in an image",
		Measured: "not measured",
		Rows:     s.rows(course.DirectDB, course.CacheAside),
		Vi: result.ClaimLines{
			Text: "Redis get-or-set (TTL 30 s) đặt trước query lấy item, sau con số 645 req/s của bản đọc thẳng database: “Chà, tốc độ khá tốt rồi đúng không?”; req/s của bản có cache chỉ có trong một ảnh chụp",
		},
	}
	c.Tolerate("ours (\"quite good\" has no figure): cache-aside %s direct-db req/s, same run",
		"của workshop (“khá tốt” không kèm con số): req/s của cache-aside %s direct-db, trong cùng một lần chạy", quiteGood.Times())
	s.says(&c)
	d, a, e := find(r, s.row(course.DirectDB)), find(r, s.row(course.CacheAside)), find(r, s.row(course.EmptyGet))
	if d == nil || a == nil || d.RPS == 0 {
		unmeasured(&c, r, s)
		return c
	}
	x := a.RPS / d.RPS
	c.Measure("cache-aside %.0f req/s = %.1f× direct-db (%.0f req/s); %.3f DB queries/request",
		"cache-aside %.0f req/s = %.1f× direct-db (%.0f req/s); %.3f DB query mỗi request",
		a.RPS, x, d.RPS, a.PerRequest.DBQueries)
	if h, ok := a.Extra[result.RedisHitRatio]; ok { // the Go server counts its lookups; an original does not
		c.MeasureMore(", Redis hit ratio %.1f%%", ", hit ratio của Redis %.1f%%", 100*h)
	}
	if e != nil && e.RPS > 0 {
		c.MeasureMore("; %.2f× the empty ceiling", "; bằng %.2f× mức trần của route rỗng", a.RPS/e.RPS)
	}
	c.Reproduced = result.Verdict(quiteGood.Holds(x) && a.Errors == 0)
	return c
}

// step2Ours: the cached read against the database's, and its queries.
func step2Ours(r *result.Result, _ Env, l messages.Lang) string {
	return Say(l, "%s direct-db; %.3f DB q/req", "%s direct-db; %.3f DB q/req", Times(RPS(r, course.CacheAside), RPS(r, course.DirectDB)), Field(find(r, course.CacheAside), func(x *result.Run) float64 { return x.PerRequest.DBQueries }))
}
