package scenario

import (
	"fmt"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/given/routes"
	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/load"
	"github.com/peakload/workshop/internal/harness/result"
)

// Step 0: the two ceilings, each measured by our Go driver and by wrk, so
// the table proves the driver saturates the server rather than itself;
// and GET /empty under each layer of the shared shell, bare echo first,
// so the table says what the shell itself costs. Three interleaved rounds:
// the layers differ by a few per cent, less than a shared machine drifts
// over a whole bench.
func init() {
	register(0, Step{
		Rounds:  3,
		Profile: course.EmptyGet, // the full shell: where a request's CPU goes when the handler does nothing
		// CAPACITY=1: the honest ceiling is the full shell's GET /empty.
		Capacity: []course.Variant{course.EmptyGet},
		Variants: func(env Env) []load.Variant {
			var vs []load.Variant
			for _, l := range shellLayers[:len(shellLayers)-1] { // the last, the full shell, is empty-get
				vs = append(vs, withTools(env, load.Variant{Name: layerRow(l, ""), Route: routes.GET(routes.Empty), Method: "GET", Path: routes.Empty,
					Server: []string{"PEAKLOAD_SHELL=" + l}})...)
			}
			vs = append(vs, ceilings(env, true)...)
			if env.Original { // article B's own stacks: Express and Koa (original_b.go)
				vs = append(vs, bCeilings(env)...)
			}
			return vs
		},
		Claims: func(r *result.Result, env Env) []result.Claim {
			if !judgedOnBoth(r, env, 0) {
				return []result.Claim{driverClaim(r), openDriverClaim(r), postClaim(r), shellClaim(r)}
			}
			return append([]result.Claim{driverClaim(r), openDriverClaim(r), markInGo(postClaim(r))[0], shellClaim(r)}, bPostClaims(r)...)
		},
		Tables: shellTables,
		Ours:   step0Ours,
	})
}

// The shell's layers by the names internal/given/server reads in PEAKLOAD_SHELL
// (serverenv.ParseLayer; TestConstantsAreTheServers holds the two equal).
// Names rather than server.Layer: the bench then links no echo.
const (
	bareShell     = "bare"
	timeoutsShell = "timeouts"
	guardsShell   = "guards"
	fullShell     = "full"
)

// shellLayers are the shell's layers in the order they are added.
var shellLayers = []string{bareShell, timeoutsShell, guardsShell, fullShell}

// What each layer adds, for the table (its words: internal/given/messages).
var layerAdds = map[string]string{
	bareShell:     "table.shell.bare",
	timeoutsShell: "table.shell.timeouts",
	guardsShell:   "table.shell.guards",
	fullShell:     "table.shell.full",
}

// layerRow names a layer's row: the full shell is the ceiling itself.
func layerRow(l, suffix string) course.Variant {
	if l == fullShell {
		return course.EmptyGet + course.Variant(suffix)
	}
	return course.Variant("shell-" + l + suffix)
}

// shellTables builds the shell up layer by layer, per load tool.
func shellTables(r *result.Result) []result.Table {
	en := messages.English
	t := result.Table{Title: en.T("table.shell.title"),
		Header: append(en.Words("table.col.tool", "table.shell.layer", "table.shell.adds"), "req/s", "CPU", "server µs/req", "+µs/req", en.T("table.shell.vs"))}
	for _, suffix := range []string{"", course.WrkTwin} {
		base := r.Find(layerRow(timeoutsShell, suffix))
		var prev *result.Run
		for _, l := range shellLayers {
			x := r.Find(layerRow(l, suffix))
			if x == nil {
				continue
			}
			delta, vs := "-", "-"
			if prev != nil && prev.PerRequest.ServerCPUus > 0 {
				delta = fmt.Sprintf("%+.1f", x.PerRequest.ServerCPUus-prev.PerRequest.ServerCPUus)
			}
			if base != nil && x.PerRequest.ServerCPUus > 0 {
				vs = fmt.Sprintf("%.2f", base.PerRequest.ServerCPUus/x.PerRequest.ServerCPUus)
			}
			t.Rows = append(t.Rows, []string{toolOf(x), l, en.T(layerAdds[l]), fmt.Sprintf("%.0f", x.RPS), busy(x),
				fmt.Sprintf("%.1f", x.PerRequest.ServerCPUus), delta, vs})
			prev = x
		}
	}
	if len(t.Rows) == 0 {
		return nil
	}
	t.Notes = en.Words("table.shell.note_us", "table.shell.note_vs")
	return []result.Table{t}
}

// toolOf names the load tool of a row: the unsuffixed rows are k6's under TOOL=k6.
func toolOf(x *result.Run) string {
	switch x.Tool {
	case "wrk", "k6":
		return x.Tool
	}
	return "Go driver"
}

func toolName(suffix string) string {
	if suffix == course.WrkTwin {
		return "wrk"
	}
	return "Go driver"
}

// shellCost is S0's tolerance: bare-with-timeouts ÷ full shell, per request.
var shellCost = course.AtLeast(0.95)

// shellClaim: S0 — the full shell costs at most 5 % of a request's server
// CPU over bare echo with the same timeouts. Judged on CPU per request, not
// req/s: the server's own CPU time is what the layers add, and it does not
// move when a neighbour slows the driver down.
func shellClaim(r *result.Result) result.Claim {
	// Data table: claim S0's declaration: its ID, source and words
	// in both languages, shaped as every step's claims are.
	c := result.Claim{
		ID:       "S0",
		Source:   result.Ours(""),
		Article:  "the shell every step serves — timeouts, panic recovery, body limit, response counting — costs ≤ 5 % over bare echo with the same timeouts, so the ceiling every figure is read against is echo's, not our instrumentation's",
		Measured: "not measured: needs the shell-timeouts and empty-get rows",
		Rows: []course.Variant{layerRow(timeoutsShell, ""), layerRow(fullShell, ""),
			layerRow(timeoutsShell, course.WrkTwin), layerRow(fullShell, course.WrkTwin)},
		Vi: result.ClaimLines{
			Text:     "lớp vỏ mà bước nào cũng dùng (timeout, bắt panic, giới hạn body, đếm response) chỉ tốn thêm ≤ 5 % so với echo trần có cùng timeout, nên mức trần mà mọi con số đem ra so là của echo, chứ không phải của phần đo đạc workshop gắn thêm",
			Measured: "chưa đo: cần hai hàng shell-timeouts và empty-get",
		},
	}
	c.Tolerate("server µs/req on GET /empty: bare-with-timeouts ÷ full shell %s (each tool that ran; all must pass)",
		"µs CPU của server mỗi request trên GET /empty: echo trần có timeout ÷ đủ lớp vỏ %s (với từng công cụ đã chạy; tất cả đều phải đạt)", shellCost)
	var parts, partsVi []string // the measured line's parts, in English and Vietnamese
	ok := true
	for _, suffix := range []string{"", course.WrkTwin} {
		base, full := r.Find(layerRow(timeoutsShell, suffix)), r.Find(layerRow(fullShell, suffix))
		if base == nil || full == nil || full.PerRequest.ServerCPUus == 0 || base.PerRequest.ServerCPUus == 0 {
			continue
		}
		x := base.PerRequest.ServerCPUus / full.PerRequest.ServerCPUus
		got := []any{toolOf(full), base.PerRequest.ServerCPUus, full.PerRequest.ServerCPUus, x, base.RPS, full.RPS, ratio(full.RPS, base.RPS)}
		parts = append(parts, fmt.Sprintf("%s: %.1f µs with timeouts, %.1f µs full shell → %.2f (req/s %.0f vs %.0f → %.2f)", got...))
		partsVi = append(partsVi, fmt.Sprintf("%s: %.1f µs khi chỉ có timeout, %.1f µs với đủ lớp vỏ → %.2f (req/s %.0f so với %.0f → %.2f)", got...))
		ok = ok && shellCost.Holds(x) && full.Errors == 0
	}
	return judged(c, parts, partsVi, ok)
}

// driverShare is how much of wrk's rate our driver must reach (A0), and
// the open loop of the closed loop's (A0-open).
var driverShare = course.AtLeast(0.9)

// driverClaim: our driver must reach ≥ 0.9× wrk's req/s on GET /empty.
// Ours: article A reads its figures against an empty GET, and says nothing
// of whether its load tool saturated the server.
func driverClaim(r *result.Result) result.Claim {
	const quote = "Empty GET sẽ thể hiện cái overhead của framework và của data."
	// Data table: claim A0's declaration: its ID, source and words
	// in both languages, shaped as every step's claims are.
	c := result.Claim{
		ID:      "A0",
		Source:  result.OursFrom("A", quote, "article A's empty GET, asked of our load tool"),
		Article: "article A reads every figure against an empty GET that returns the item's body (k6, concurrency 200, one Node process); the workshop's question: that is a ceiling only if the load tool saturates the server, not itself",
		// the tools are what it compares: a client-bound row is its finding
		JudgesTools: true,
		Rows:        []course.Variant{course.EmptyGet, course.EmptyGet.Wrk()},
		Measured:    "not measured: needs both the Go driver and wrk rows (install wrk; TOOL unset)",
		Vi: result.ClaimLines{
			Text:     "bài A đọc mọi con số so với một empty GET trả về body của item (k6, concurrency 200, một process Node): “" + quote + "” Câu hỏi của workshop: con số đó chỉ là mức trần nếu công cụ tạo tải ép được server chạy hết sức, chứ không phải chính nó nghẽn trước",
			Measured: "chưa đo: cần cả hàng của Go driver lẫn hàng của wrk (cài wrk; để trống TOOL)",
		},
	}
	c.Tolerate("ours: Go driver %s wrk's req/s on GET /empty, same pinned server",
		"của workshop: Go driver %s req/s của wrk trên GET /empty, cùng một server đã ghim CPU", driverShare.Times())
	g, w := find(r, course.EmptyGet), find(r, course.EmptyGet.Wrk())
	if g == nil || w == nil || w.RPS == 0 {
		return c
	}
	x := g.RPS / w.RPS
	c.Measure("GET /empty: Go driver %.0f req/s, wrk %.0f req/s → %.2f× wrk", "GET /empty: Go driver %.0f req/s, wrk %.0f req/s → %.2f× wrk", g.RPS, w.RPS, x)
	c.Reproduced = result.Verdict(driverShare.Holds(x) && g.Errors == 0)
	return c
}

// openDriverClaim: A0-open — the open loop (CAPACITY=1) keeps a schedule
// as fast as the closed loop goes: sleeping until each request is due and
// timing it from then must not cost the driver the rate it measures.
func openDriverClaim(r *result.Result) result.Claim {
	// Data table: claim A0-open's declaration: its ID, source and words
	// in both languages, shaped as every step's claims are.
	c := result.Claim{
		ID:       "A0-open",
		Source:   result.Ours(""),
		Article:  "the capacity figures are only the server's if the open-loop driver keeps its schedule: it must reach the closed loop's GET /empty rate with its latency bookkeeping on",
		Measured: "not measured: needs CAPACITY=1",
		Vi: result.ClaimLines{
			Text:     "các con số capacity chỉ là của server khi driver vòng hở giữ đúng lịch gửi: nó phải đạt req/s của GET /empty ở vòng kín mà vẫn ghi latency của từng request",
			Measured: "chưa đo: cần CAPACITY=1",
		},
	}
	c.Tolerate("the highest rate a capacity probe of GET /empty achieved %s the closed loop's req/s (the first probe is scheduled at it)",
		"mức tải cao nhất mà một lần dò capacity trên GET /empty đạt được %s req/s của vòng kín (lần dò đầu tiên được lên lịch đúng ở mức đó)", driverShare.Times())
	cp := r.CapacityOf(course.EmptyGet)
	if cp == nil || cp.ClosedRPS == 0 || len(cp.Probes) == 0 {
		return c
	}
	first := cp.Probes[0].Run.Arrival
	x := cp.Achieved() / cp.ClosedRPS
	c.Measure("closed loop %.0f req/s; open loop scheduled at it achieved %.0f (%.1f%% of requests sent late), best probe %.0f → %.2f×",
		"vòng kín %.0f req/s; vòng hở lên lịch đúng mức đó đạt %.0f (%.1f%% request gửi trễ), lần dò tốt nhất %.0f → %.2f×",
		cp.ClosedRPS, first.AchievedRPS, 100*first.MissedShare(), cp.Achieved(), x)
	c.Reproduced = result.Verdict(driverShare.Holds(x))
	return c
}

// postBand is B2's tolerance on POST/GET around the article's 0.73 (ours).
var postBand = course.Band{Lo: 0.55, Hi: 0.95}

// postClaim: B1/B2 — parsing the real payload costs something.
func postClaim(r *result.Result) result.Claim {
	const quote = "Với empty POST có cùng data như bài test, số request giảm xuống chỉ còn 4026 rps"
	// Data table: claim B2's declaration: its ID, source and words
	// in both languages, shaped as every step's claims are.
	c := result.Claim{
		ID:       "B2",
		Source:   result.Article("B", quote, "0.73"),
		Article:  "empty POST with the real payload 4026 req/s vs empty GET 5498 req/s (Express): 0.73× (our arithmetic) — reading and parsing the body is the write path's first cost",
		Measured: "not measured",
		Rows:     []course.Variant{course.EmptyGet, course.EmptyPost, course.EmptyGet.Wrk(), course.EmptyPost.Wrk()},
		Vi: result.ClaimLines{
			Text: "“" + quote + "”, so với 5498 req/s của empty GET (Express): 0.73× (phép tính của workshop): đọc và parse body là chi phí đầu tiên của đường ghi",
		},
	}
	c.Tolerate("POST/GET %s", "POST/GET %s", postBand)
	for _, suffix := range []string{"", course.WrkTwin} {
		g, p := r.Find(course.EmptyGet+course.Variant(suffix)), r.Find(course.EmptyPost+course.Variant(suffix))
		if g == nil || p == nil || g.RPS == 0 {
			continue
		}
		x := p.RPS / g.RPS
		c.Measure("POST /empty %.0f req/s vs GET /empty %.0f req/s → %.2f× (%s)", "POST /empty %.0f req/s so với GET /empty %.0f req/s → %.2f× (%s)", p.RPS, g.RPS, x, toolOf(g))
		c.Reproduced = result.Verdict(postBand.Holds(x))
		return c
	}
	return c
}

// step0Ours: the empty POST against the GET, and our driver against wrk.
func step0Ours(r *result.Result, _ Env, l messages.Lang) string {
	return Say(l, "POST/GET %s; our driver %s wrk", "POST/GET %s; driver của workshop %s wrk", Times(RPS(r, course.EmptyPost), RPS(r, course.EmptyGet)), Times(RPS(r, course.EmptyGet), RPS(r, course.EmptyGet.Wrk())))
}
