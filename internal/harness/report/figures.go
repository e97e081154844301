package report

import (
	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/result"
)

// Ratio is one of an article's figures that our runs can be set beside:
// both sides are ratios (or counts), never absolute req/s, since the
// articles measured Node on other machines. Article is the article's own
// figure, as it states it (the one number here that is typed: it is a
// quotation, see /docs/articles.md); Ours is computed from the runs.
type Ratio struct {
	Claim   string  // the claim ID whose verdict the row shows
	What    string  // what is divided by what
	Article float64 // the article's figure
	Low     float64 // with High, the article's range when it gives one ("÷ 5–6")
	High    float64
	Quote   string // the article's figure as it words it
	Ours    func(r *result.Result) float64
}

// Counter is the per-request figure that proves a step's mechanism (the
// third panel of a step's chart).
type Counter struct {
	Label string
	Value func(x *result.Run) float64
}

// Step is what a step's charts show besides req/s and p99.
type Step struct {
	Counter Counter
	Ratios  []Ratio
}

// find is r's run of variant v, nil when it has none.
func find(r *result.Result, v course.Variant) *result.Run { return r.Find(v) }

func rps(r *result.Result, v course.Variant) float64 {
	if x := find(r, v); x != nil {
		return x.RPS
	}
	return 0
}

func extraOf(r *result.Result, v course.Variant, key result.Key) float64 {
	if x := find(r, v); x != nil {
		return x.Extra[key]
	}
	return 0
}

func div(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

func dbQueries(x *result.Run) float64  { return x.PerRequest.DBQueries }
func serverCPU(x *result.Run) float64  { return x.PerRequest.ServerCPUus }
func redisBytes(x *result.Run) float64 { return x.PerRequest.RedisBytes }

// Steps holds, per step number, its mechanism counter and the article's
// figures that have a counterpart in our runs. A claim without a figure in
// the article (A0, A2, B8, B9) appears in the verdict tables only.
var Steps = map[int]Step{
	0: {Counter: Counter{"server CPU µs / request", serverCPU},
		Ratios: []Ratio{{Claim: "B2", What: "empty POST ÷ empty GET, req/s", Article: 4026.0 / 5498.0, Quote: "4026 ÷ 5498 req/s",
			Ours: func(r *result.Result) float64 { return div(rps(r, course.EmptyPost), rps(r, course.EmptyGet)) }}}},
	1: {Counter: Counter{"DB queries / request", dbQueries}},
	2: {Counter: Counter{"DB queries / request", dbQueries}},
	3: {Counter: Counter{"response body bytes / request", func(x *result.Run) float64 { return x.Extra[result.BodyBytesPerReq] }},
		Ratios: []Ratio{
			{Claim: "A3", What: "cache-aside ÷ etag, body bytes / request", Article: 4, Quote: "÷ ~4",
				Ours: func(r *result.Result) float64 {
					return div(extraOf(r, course.CacheAsidePoll, result.BodyBytesPerReq), extraOf(r, course.ETagPoll, result.BodyBytesPerReq))
				}},
			{Claim: "A3-wire", What: "cache-aside ÷ etag, all bytes received / request", Article: 4, Quote: "÷ ~4",
				Ours: func(r *result.Result) float64 {
					a, e := find(r, course.CacheAsidePoll), find(r, course.ETagPoll)
					if a == nil || e == nil {
						return 0
					}
					return div(a.PerRequest.PublicBytes, e.PerRequest.PublicBytes)
				}},
		}},
	4: {Counter: Counter{"DB queries / request", dbQueries}},
	5: {Counter: Counter{"Redis bytes / request", redisBytes},
		Ratios: []Ratio{
			{Claim: "A5", What: "singleflight ÷ burst, Redis bytes / request", Article: 5.5, Low: 5, High: 6, Quote: "÷ 5–6",
				Ours: func(r *result.Result) float64 {
					s, b := find(r, course.Singleflight), find(r, course.Burst)
					if s == nil || b == nil {
						return 0
					}
					return div(s.PerRequest.RedisBytes, b.PerRequest.RedisBytes)
				}},
			{Claim: "A5-rps", What: "burst ÷ singleflight, req/s", Article: 1.1, Quote: "~+10%",
				Ours: func(r *result.Result) float64 { return div(rps(r, course.Burst), rps(r, course.Singleflight)) }},
		}},
	6: {Counter: Counter{"events persisted / s", func(x *result.Run) float64 {
		if v, ok := x.Extra[result.PersistedPerS]; ok {
			return v
		}
		return 0
	}},
		Ratios: []Ratio{
			{Claim: "B4", What: "raw ×100 ÷ one at a time, inserts/s", Article: 8264.0 / 2620.0, Quote: "8264 ÷ 2620 /s",
				Ours: func(r *result.Result) float64 {
					return div(extraOf(r, course.Raw100, result.PersistedPerS), extraOf(r, course.RawSeq, result.PersistedPerS))
				}},
			{Claim: "B6", What: "async ÷ sync, req/s answered", Article: 50.9 / 42.3, Quote: "50.9 s ÷ 42.3 s",
				Ours: func(r *result.Result) float64 { return div(rps(r, course.Async), rps(r, course.Sync)) }},
			{Claim: "B7", What: "group ÷ async, persisted/s (all the work)", Article: 2673.0 / 1968.0, Quote: "2673 ÷ 1968 /s",
				Ours: func(r *result.Result) float64 {
					return div(extraOf(r, course.Group, result.PersistedPerS), extraOf(r, course.Async, result.PersistedPerS))
				}},
		}},
	7: {Counter: Counter{"DB writes / request", func(x *result.Run) float64 { return x.Extra[result.DBWritesPerReq] }}},
	8: {Counter: Counter{"server CPU µs / request", serverCPU},
		Ratios: []Ratio{
			{Claim: "C1", What: "after ÷ before, req/s", Article: 19.5 / 5.3, Quote: "5.3 → 19.5 req/s",
				Ours: func(r *result.Result) float64 { return div(rps(r, course.After), rps(r, course.Before)) }},
			{Claim: "C2", What: "before ÷ after, mean latency", Article: 3.75 / 1.03, Quote: "3.75 s → 1.03 s",
				Ours: func(r *result.Result) float64 {
					b, a := find(r, course.Before), find(r, course.After)
					if b == nil || a == nil {
						return 0
					}
					return div(b.Latency.Mean, a.Latency.Mean)
				}},
		}},
	9: {Counter: Counter{"server CPU µs / request", serverCPU},
		Ratios: []Ratio{
			{Claim: "D2", What: "fastest ÷ echo, empty GET req/s", Article: 81500.0 / 14200.0, Quote: "14,200 → 81,500 req/s",
				Ours: func(r *result.Result) float64 {
					best := 0.0
					for _, fw := range course.Frameworks {
						best = max(best, rps(r, course.FrameworkRow(fw, "empty")))
					}
					return div(best, rps(r, course.EchoEmpty))
				}},
		}},
}
