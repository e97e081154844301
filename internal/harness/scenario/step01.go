package scenario

import (
	"fmt"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/given/routes"
	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/load"
	"github.com/peakload/workshop/internal/harness/result"
)

// Step 1: the item read straight from PostgreSQL, beside the empty ceiling
// in the same run. Hot-skewed ids, the live-stats worker running.
// Data table: step 1's rows, the ceiling first, and its claims, as every step declares its own.
func init() {
	register(1, Step{
		Variants: func(env Env) []load.Variant {
			return withOriginal(env, []load.Variant{
				{Name: course.EmptyGet, Route: routes.GET(routes.Empty), Method: "GET", Path: routes.Empty},
				{Name: course.DirectDB, Route: routes.GET(routes.Items), Prepare: itemRequest(env, routes.Items)},
			}, onFastify, fastify(0, 0)) // step 1 reads no cache
		},
		Claims: onEachStack(course.DirectDB, directClaim),
		Ours:   step1Ours,
		// A1's rate half is a bound cleared ×16 (LooseRate).
		KeepOnBusy: []string{"A1"},
	})
}

// A1's tolerances (ours): one DB query per request, and the direct read
// at most this share of the empty ceiling.
var (
	oneQuery = course.Band{Lo: 0.95, Hi: 1.05}
	dbBound  = course.AtMost(0.5)
)

// directClaim: A1 — one query per request, and the database, not the
// framework, bounds the throughput; judged on stack s's rows.
func directClaim(r *result.Result, _ Env, s onStack) result.Claim {
	// Data table: claim A1's declaration: its ID, source and words
	// in both languages, shaped as every step's claims are.
	c := result.Claim{
		ID:        s.id("A1"),
		Source:    result.Article("A", "10 CCU thì tạo ra 1 req/s thì con số 645 req/s ở trên chỉ có thể đáp ứng được 6k CCU"),
		Article:   "645 req/s straight from PostgreSQL, which by the author's rule of thumb (10 CCU make 1 req/s) serves only 6k CCU; the empty GET's figure is only in an image",
		Measured:  "not measured",
		Rows:      s.rows(course.DirectDB, course.EmptyGet),
		LooseRate: true, // 0.03× in the reference run: no neighbour moves it across 0.5×
		Vi: result.ClaimLines{
			Text: "645 req/s đọc thẳng từ PostgreSQL; theo kinh nghiệm của tác giả trên vài hệ thống, “10 CCU thì tạo ra 1 req/s thì con số 645 req/s ở trên chỉ có thể đáp ứng được 6k CCU”; req/s của GET rỗng chỉ có trong một ảnh chụp",
		},
	}
	c.Tolerate("ours (the article's text gives the ceiling no figure): DB queries/request in %s (the item is one query) and direct-db %s the GET /empty ceiling",
		"của workshop (phần chữ của bài không ghi con số nào cho mức trần): DB query mỗi request trong %s (một item là một query) và direct-db %s mức trần GET /empty",
		oneQuery.Interval(), dbBound.Times())
	s.says(&c)
	d, e := find(r, s.row(course.DirectDB)), find(r, s.row(course.EmptyGet))
	if d == nil || e == nil || uncounted(d) {
		unmeasured(&c, r, s)
		return c
	}
	x := ratio(d.RPS, e.RPS)
	c.Measure("%.0f req/s = %.2f× the empty ceiling (%.0f req/s); %.2f DB queries/request; ≈ %s CCU by the same rule of thumb",
		"%.0f req/s = %.2f× mức trần của route rỗng (%.0f req/s); %.2f DB query mỗi request; ≈ %s CCU theo cùng quy tắc kinh nghiệm đó",
		d.RPS, x, e.RPS, d.PerRequest.DBQueries, thousandsInt(d.RPS*10))
	q := d.PerRequest.DBQueries
	c.Reproduced = result.Verdict(oneQuery.Holds(q) && dbBound.Holds(x) && d.Errors == 0)
	return c
}

func thousandsInt(v float64) string {
	n := int64(v + 0.5)
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// step1Ours: the database read against the empty ceiling, one query each.
func step1Ours(r *result.Result, _ Env, l messages.Lang) string {
	d := find(r, course.DirectDB)
	return Say(l, "%s req/s, %s the ceiling; %.2f DB q/req", "%s req/s, %s mức trần; %.2f DB q/req", Rate(RPS(r, course.DirectDB)), Times(RPS(r, course.DirectDB), RPS(r, course.EmptyGet)), Field(d, func(x *result.Run) float64 { return x.PerRequest.DBQueries }))
}
