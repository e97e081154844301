package scenario

import (
	"fmt"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/given/routes"
	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/load"
	"github.com/peakload/workshop/internal/harness/result"
)

// Step 4: a stampede. All VUs read the most watched stream, whose Redis key
// expires every 30 s on the articles' clock (300 ms), while the worker's
// cron updates the live rows. Once per expiry every request in flight
// misses together: how many queries does each expiry cost?
// Data table: step 4's rows, and its claims, as every step declares its own.
func init() {
	register(4, Step{
		Variants: func(env Env) []load.Variant {
			top := fmt.Sprint(env.Skew().HotID(0))
			// A third of the TTL per point of the series: each expiry's
			// stampede shows as its own spike of DB queries per second.
			every := env.Params.Scaled(env.Params.Clock.RedisTTLS) / 3
			return withOriginal(env, []load.Variant{
				{Name: course.CacheAside, Route: routes.GET(routes.Cached), Path: routes.Prefix(routes.Cached) + top, Setup: flushRedis(env), SeriesEvery: every},
				{Name: course.Singleflight, Route: routes.GET(routes.Coalesced), Path: routes.Prefix(routes.Coalesced) + top, Setup: flushRedis(env), SeriesEvery: every},
			}, onFastify, fastify(env.Params.Scaled(env.Params.Clock.RedisTTLS), 0)) // step 4's main.go: the articles' clock
		},
		Claims:     onEachStack(course.Singleflight, stampedeClaim),
		Ours:       step4Ours,
		Rewards:    []string{"A4"}, // DB queries per key expiry
		KeepOnBusy: []string{"A4"},
	})
}

// queriesPerExpiry: every DB query of a run's window divided by the number
// of times its one key expired (the run's length over the TTL). Every
// query, on a request's behalf or not (the global counter): a shared load
// run on a context without the leader's values would be in no request's
// tally, and must still count. An edge adds at most a load in flight.
func queriesPerExpiry(x *result.Run, env Env) float64 {
	expiries := x.DurationS / env.Params.Scaled(env.Params.Clock.RedisTTLS).Seconds()
	q, ok := x.Extra[result.DBQueriesInWindow]
	if !ok { // a results file from before db_queries_in_window
		q = x.PerRequest.DBQueries * float64(x.Requests)
	}
	return q / expiries
}

// A4's tolerances: singleflight's DB queries per key expiry (the article's
// 1 and our slack), and cache-aside's at least this multiple of them (ours).
var (
	onePerExpiry = course.AtMost(1.5)
	herd         = course.AtLeast(10)
)

// stampedeClaim: A4 — 1000 concurrent misses → 1 DB query, judged on
// stack s's rows.
func stampedeClaim(r *result.Result, env Env, s onStack) result.Claim {
	// Data table: claim A4's declaration: its ID, source and words
	// in both languages, shaped as every step's claims are.
	c := result.Claim{
		ID:       s.id("A4"),
		Source:   result.Article("A", "Dù có 1000 request tới cùng lúc và bị miss cache thì cũng chỉ có 1 request tới được db mà thôi."),
		Article:  "keep the in-flight load per key so concurrent misses wait for it: even 1000 requests missing the cache at once send only 1 to the database",
		Measured: "not measured",
		Vi: result.ClaimLines{
			Text: "giữ lượt load đang chạy của mỗi key để các lượt miss cùng lúc chờ nó: “Dù có 1000 request tới cùng lúc và bị miss cache thì cũng chỉ có 1 request tới được db mà thôi.”",
		},
	}
	c.Tolerate("singleflight %s DB queries per key expiry (the article's 1; the slack is ours), and cache-aside %s that (ours: the herd must be there to be cured)",
		"singleflight %s DB query mỗi lần key hết hạn (số 1 của bài viết; phần dư của workshop), và cache-aside %s số đó (của workshop: phải có stampede thật thì mới có bệnh để chữa)",
		onePerExpiry, herd.Times())
	s.says(&c)
	a, f := find(r, s.row(course.CacheAside)), find(r, s.row(course.Singleflight))
	if a == nil || f == nil {
		unmeasured(&c, r, s)
		return c
	}
	qa, qf := queriesPerExpiry(a, env), queriesPerExpiry(f, env)
	c.Measure("%d VUs on one key, TTL %s: cache-aside %.1f DB queries per expiry, singleflight %.2f",
		"%d VUs cùng đọc một key, TTL %s: cache-aside %.1f DB query mỗi lần hết hạn, singleflight %.2f",
		a.VUs, env.Params.Scaled(env.Params.Clock.RedisTTLS), qa, qf)
	if j, ok := f.Extra[result.CoalescedPerReq]; ok { // the Go server counts who joined a flight; an original does not
		c.MeasureMore("; %.0f%% of requests joined a flight in progress", "; %.0f%% request chờ chung một lượt load đang chạy", 100*j)
	}
	c.MeasureMore("; p99 %.1f → %.1f ms", "; p99 %.1f → %.1f ms", a.Latency.P99, f.Latency.P99)
	c.Reproduced = result.Verdict(onePerExpiry.Holds(qf) && herd.HoldsFor(qa, qf) && a.Errors == 0 && f.Errors == 0)
	return c
}

// step4Ours: DB queries per stampede (one Redis TTL), with and without coalescing.
func step4Ours(r *result.Result, env Env, l messages.Lang) string {
	p := env.Params
	per := func(x *result.Run) float64 {
		return x.PerRequest.DBQueries * float64(x.Requests) / (x.DurationS / p.Scaled(p.Clock.RedisTTLS).Seconds())
	}
	return Say(l, "%.2f vs %.0f DB queries per stampede", "%.2f so với %.0f truy vấn DB mỗi cache stampede", Field(find(r, course.Singleflight), per), Field(find(r, course.CacheAside), per))
}
