package scenario

import (
	"strings"

	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/result"
)

// Article D's claims judged on its own stacks (ORIGINAL=1): Express on
// Node and Elysia on Bun, pinned to the Go server's CPU, against the same
// database, driven by the same 500 VUs. Only the runtime and the framework
// differ between the two rows; the article changed its kernel settings and
// pools too, which here both stacks share.

// originalRows are the two stacks' rows on endpoint ep, Express first;
// missing says why they are not both there: the bench's note when it
// skipped them, else that ORIGINAL=1 was not asked for.
func originalRows(r *result.Result, ep string) (express, elysia *result.Run, missing string) {
	express, elysia = find(r, course.FrameworkRow(course.Express, ep)), find(r, course.FrameworkRow(course.Elysia, ep))
	if express != nil && elysia != nil && express.RPS > 0 && elysia.RPS > 0 {
		return express, elysia, ""
	}
	for _, n := range r.Notes {
		if strings.Contains(n, "d-express/") || strings.Contains(n, "d-elysia/") {
			return nil, nil, n
		}
	}
	return nil, nil, ""
}

// notJudged marks c as not judged because its rows are missing: said by
// the bench's note, or, without ORIGINAL=1, left "not measured" with what
// measures it (a learner read a bare "not measured" as a gap in the bench).
func notJudged(c *result.Claim, why string) {
	if why != "" {
		c.Unjudge("its rows did not run: %s", "các hàng của nó không chạy: %s", why)
		return
	}
	c.Measure("not measured: run with ORIGINAL=1 to measure the source's stack (`make prefetch-originals` first)",
		"chưa đo: chạy với ORIGINAL=1 để đo trên stack gốc của bài viết (chạy `make prefetch-originals` trước)")
}

// jsSwitch is D2-js's bound (ours): Elysia on Bun ÷ Express on Node.
var jsSwitch = course.AtLeast(3)

// originalSwitchClaim: D2 on the source's stack — the article's ×5.7 from
// Express on Node to Elysia on Bun, on the empty GET.
func originalSwitchClaim(r *result.Result) result.Claim {
	rows := []course.Variant{course.FrameworkRow(course.Express, "empty"), course.FrameworkRow(course.Elysia, "empty")}
	// Data table: switchClaim's D2 (step09.go) said of the source's stack.
	c := result.Claim{ID: "D2-js", Measured: "not measured", Rows: rows, Ceiling: rows,
		Source:  result.Article("D", switchQuote, "5.7"),
		Article: "[" + result.SourcesStack + "Express on Node, Elysia on Bun] Node + Express 14,200 req/s → Bun + Elysia 81,500 req/s (×5.7, our arithmetic) on 1 vCPU; here both on the Go server's one CPU, with the same kernel and pool, so the runtime and the framework alone",
		Vi: result.ClaimLines{
			Text: "[trên stack gốc của bài viết, chạy tại đây: Express trên Node, Elysia trên Bun] Node + Express 14,200 req/s → Bun + Elysia 81,500 req/s: “" + switchQuote + "” (×5.7, phép tính của workshop) trên 1 vCPU; ở đây cả hai cùng chạy trên một CPU của server Go, cùng cấu hình kernel và pool, nên chỉ còn khác runtime và framework",
		}}
	c.Tolerate("Elysia on Bun ÷ Express on Node, req/s on the empty GET %s (ours: about half the article's ×5.7, our arithmetic, whose kernel and pool tuning both stacks share here)",
		"req/s của Elysia trên Bun ÷ Express trên Node ở empty GET %s (của workshop: khoảng nửa ×5.7 của bài, phép tính của workshop; tinh chỉnh kernel và pool của bài thì ở đây hai stack dùng chung)", jsSwitch)
	ex, el, why := originalRows(r, "empty")
	if ex == nil {
		notJudged(&c, why)
		return c
	}
	c.Measure("empty GET: Express on Node %.0f req/s (%.0f µs CPU/req, %s of the CPU), Elysia on Bun %.0f req/s (%.0f µs CPU/req, %s); Elysia ÷ Express ×%.2f",
		"empty GET: Express trên Node %.0f req/s (%.0f µs CPU/req, dùng %s CPU), Elysia trên Bun %.0f req/s (%.0f µs CPU/req, %s); Elysia ÷ Express ×%.2f",
		ex.RPS, ex.PerRequest.ServerCPUus, busy(ex), el.RPS, el.PerRequest.ServerCPUus, busy(el), el.RPS/ex.RPS)
	c.Reproduced = result.Verdict(jsSwitch.Holds(el.RPS / ex.RPS))
	return c
}

// originalGapClaim: D1 on the source's stack — the step's lesson, that a
// framework's (here: a whole stack's) lead shrinks as the handler's cost
// grows, with the Go claim's tolerance.
func originalGapClaim(r *result.Result) result.Claim {
	// Data table: gapClaim's D1 (step09.go) said of the source's stack.
	c := result.Claim{ID: "D1-js", Measured: "not measured",
		Source:  result.Article("A", gapQuote, "5.7"),
		Article: "[" + result.SourcesStack + "Express on Node, Elysia on Bun] framework overhead is worth choosing for once API times are a few ms to tens of ms — so Elysia on Bun's lead over Express on Node (article D's ×5.7, our arithmetic) should shrink on a database read",
		Vi: result.ClaimLines{
			Text: "[trên stack gốc của bài viết, chạy tại đây: Express trên Node, Elysia trên Bun] overhead của framework chỉ đáng để chọn khi API tốn từ vài ms tới vài chục ms: “" + gapQuote + "” Vậy khoảng cách của Elysia trên Bun so với Express trên Node (×5.7 của bài D, phép tính của workshop) phải co lại khi đọc từ database",
		}}
	c.Tolerate("ours (article A gives no figure), as D1 in Go: Elysia ÷ Express req/s on the DB-bound read %s, and %s the larger of that ratio on the cheap endpoints",
		"của workshop (bài A không đưa con số), như D1 trong Go: req/s của Elysia ÷ Express trên route đọc mà database là nút thắt %s, và %s tỉ số lớn nhất đo trên các endpoint nhẹ",
		dbGap, gapShrinks.Times())
	ratios := make(map[string]float64, len(course.Endpoints))
	for _, ep := range course.Endpoints {
		ex, el, why := originalRows(r, ep)
		if ex == nil {
			notJudged(&c, why)
			return c
		}
		c.Rows = append(c.Rows, ex.Variant, el.Variant)
		ratios[ep] = el.RPS / ex.RPS
	}
	e, v, i := ratios["empty"], ratios["validate"], ratios["item"]
	c.Measure("Elysia on Bun ÷ Express on Node: empty ×%.2f, validate ×%.2f, item ×%.2f",
		"Elysia trên Bun ÷ Express trên Node: empty ×%.2f, validate ×%.2f, item ×%.2f", e, v, i)
	c.Reproduced = result.Verdict(gapHolds(e, v, i))
	return c
}
