package scenario

import (
	"fmt"
	"strconv"

	"github.com/valyala/fasthttp"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/given/routes"
	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/load"
	"github.com/peakload/workshop/internal/harness/result"
)

// Step 3: short-polling clients. Each VU watches one stream (drawn by the
// skew), polls it every 15 s on the articles' clock (150 ms) and sends back
// the ETag it last saw, while the worker changes the live streams every
// 60 s (600 ms): four polls per change.
// Data table: step 3's rows, and its claims, as every step declares its own.
func init() {
	register(3, Step{
		Variants: func(env Env) []load.Variant {
			every := env.Params.Scaled(env.Params.Clock.PollS)
			plain := poller(env, routes.Cached)
			tagged := poller(env, routes.ETag)
			return withOriginal(env, []load.Variant{
				{Name: course.CacheAsidePoll, Route: routes.GET(routes.Cached), Prepare: plain.prepare, Check: plain.check, Pace: every, Setup: flushRedis(env)},
				{Name: course.ETagPoll, Route: routes.GET(routes.ETag), Prepare: tagged.prepare, Check: tagged.check, Pace: every, Setup: flushRedis(env)},
			}, onFastify, fastify(env.Params.Scaled(env.Params.Clock.RedisTTLS), 0)) // step 3's main.go: the articles' clock
		},
		Claims: func(r *result.Result, env Env) []result.Claim {
			out := etagClaims(r, env)
			if s := stacks(r, env, onFastify, course.ETagPoll); len(s) > 1 {
				out = append(out, etagWireClaim(r, env, s[1]))
			}
			return out
		},
		Ours:       step3Ours,
		Rewards:    []string{"A3"}, // body bytes per request, 304 share
		KeepOnBusy: []string{"A3", "A3-wire"},
	})
}

// pollState is one client: the stream it watches and the ETag it last saw.
type pollState struct {
	uri  []byte
	etag []byte
}

type polling struct {
	prepare func(vu *load.VU, req *fasthttp.Request)
	check   func(vu *load.VU, resp *fasthttp.Response) error
}

func poller(env Env, route string) polling {
	skew := env.Skew()
	return polling{
		prepare: func(vu *load.VU, req *fasthttp.Request) {
			st, _ := vu.State.(*pollState)
			if st == nil {
				id := skew.Pick(vu.Rand)
				st = &pollState{uri: strconv.AppendInt([]byte(routes.Prefix(route)), int64(id), 10)}
				vu.State = st
			}
			req.SetRequestURIBytes(st.uri)
			if len(st.etag) > 0 {
				req.Header.SetBytesV("If-None-Match", st.etag)
			}
		},
		check: func(vu *load.VU, resp *fasthttp.Response) error {
			st := vu.State.(*pollState)
			switch resp.StatusCode() {
			case fasthttp.StatusOK:
				st.etag = append(st.etag[:0], resp.Header.Peek("ETag")...)
				return nil
			case fasthttp.StatusNotModified:
				return nil
			}
			return fmt.Errorf("HTTP %d: %.200s", resp.StatusCode(), resp.Body())
		},
	}
}

// etagClaims: A3 — three polls in four get no body, so public bandwidth
// ÷ ~4. Judged twice against the article's figure: on the bodies (the
// mechanism) and on everything the clients received (the bandwidth).
const etagQuote = "Sau khi bật Etag thì mình giảm được khoảng ~4 lần băng thông output public"

func etagClaims(r *result.Result, env Env) []result.Claim {
	polls := env.Params.Clock.ChangeS / env.Params.Clock.PollS
	change := fmt.Sprintf("%.0f", env.Params.Clock.ChangeS)
	const quote = etagQuote
	article := fmt.Sprintf("weak ETag + 304 for clients polling every %.0f s while data changes every %s s (ours; the article: about once a minute): public bandwidth ÷ ~4", env.Params.Clock.PollS, change)
	body := result.Claim{ID: "A3", Article: article, Measured: "not measured",
		// the polling interval is the article's; the change interval is
		// our parameter for its "khoảng 1p/lần"
		Source: result.Article("A", quote, change),
		Vi: result.ClaimLines{
			Text: fmt.Sprintf("weak ETag + 304 cho các client short-polling mỗi %.0f s, trong khi dữ liệu đổi mỗi %s s (tham số của workshop; bài viết: khoảng mỗi phút một lần): “%s”",
				env.Params.Clock.PollS, change, quote),
		}}
	body.Tolerate("response bodies/request of cache-aside ÷ etag %s (the article's ~4; the band is ours)",
		"số byte body mỗi request, cache-aside ÷ etag, %s (~4 là của bài viết; khoảng dung sai là của workshop)", course.ETagBand)
	wire := result.Claim{ID: "A3-wire", Measured: "not measured",
		Article: "the workshop's question on article A's ÷ ~4: does it hold on every byte the clients received (status line and headers as well as bodies)?",
		Source:  result.OursFrom("A", quote, "article A's ÷ ~4 (A3), asked of the whole response"),
		Vi: result.ClaimLines{
			Text: "câu hỏi của workshop về con số ÷ ~4 của bài A (“" + quote + "”): con số đó có còn đúng trên mọi byte client nhận về, tính cả status line và header chứ không chỉ body?",
		}}
	wire.Tolerate("bytes received/request (status line + headers + body) of cache-aside ÷ etag %s",
		"số byte nhận về mỗi request (status line + header + body), cache-aside ÷ etag, %s", course.ETagBand)
	inGo.says(&body)
	inGo.says(&wire)
	a, e := find(r, course.CacheAsidePoll), find(r, course.ETagPoll)
	if a == nil || e == nil || e.PerRequest.PublicBytes == 0 || extra(e, result.BodyBytesPerReq) == 0 {
		return []result.Claim{body, wire}
	}
	ok := a.Errors == 0 && e.Errors == 0
	share := extra(e, result.Status304Share)
	xb := extra(a, result.BodyBytesPerReq) / extra(e, result.BodyBytesPerReq)
	body.Measure("%.0f → %.0f body bytes/request = ÷ %.2f; %.0f%% of polls answered 304 (%.0f polls per change: at most %.0f%%)",
		"%.0f → %.0f byte body mỗi request = ÷ %.2f; %.0f%% lượt poll được trả 304 (%.0f lượt poll mỗi lần dữ liệu đổi: tối đa %.0f%%)",
		extra(a, result.BodyBytesPerReq), extra(e, result.BodyBytesPerReq), xb, 100*share, polls, 100*(1-1/polls))
	paceNote(&body, e, env)
	body.Reproduced = result.Verdict(ok && course.ETagBand.Holds(xb))
	xw := a.PerRequest.PublicBytes / e.PerRequest.PublicBytes
	wire.Measure("%.0f → %.0f bytes/request = ÷ %.2f: each 304 still carries a status line and headers (Date, ETag, Cache-Control)",
		"%.0f → %.0f byte mỗi request = ÷ %.2f: mỗi response 304 vẫn mang status line và header (Date, ETag, Cache-Control)",
		a.PerRequest.PublicBytes, e.PerRequest.PublicBytes, xw)
	wire.Reproduced = result.Verdict(ok && course.ETagBand.Holds(xw))
	return []result.Claim{body, wire}
}

// paceNote: the ÷4 needs every client to keep its pace. A machine (or a
// server) too busy to serve VUs ÷ poll interval requests a second polls
// less often per change, and fewer polls find nothing changed: say so
// beside the figure.
func paceNote(c *result.Claim, e *result.Run, env Env) {
	polls := env.Params.Clock.ChangeS / env.Params.Clock.PollS
	if e.VUs <= 0 || e.RPS <= 0 {
		return
	}
	kept := e.RPS / float64(e.VUs) * env.Params.Scaled(env.Params.Clock.ChangeS).Seconds()
	if kept < 0.9*polls {
		c.MeasureMore("; the clients polled only %.1f times per change: this machine did not keep every client's pace of one poll per %s, so at most %.0f%% could be 304",
			"; mỗi lần dữ liệu đổi, client chỉ poll được %.1f lần: máy này không giữ nổi nhịp một lượt poll mỗi %s cho mọi client, nên tối đa chỉ %.0f%% có thể là 304",
			kept, env.Params.Scaled(env.Params.Clock.PollS), 100*max(0, 1-1/kept))
	}
}

// step3Ours: what the 304s save, in bodies and on the wire.
func step3Ours(r *result.Result, _ Env, l messages.Lang) string {
	a, e := find(r, course.CacheAsidePoll), find(r, course.ETagPoll)
	body := func(x *result.Run) float64 { return x.Extra[result.BodyBytesPerReq] }
	wire := func(x *result.Run) float64 { return x.PerRequest.PublicBytes }
	return Say(l, "bodies ÷ %.2f; on the wire ÷ %.2f", "body ÷ %.2f; trên đường truyền ÷ %.2f", Field(a, body)/Field(e, body), Field(a, wire)/Field(e, wire))
}

// etagWireClaim: A3 on a source's own stack (Fastify's @fastify/etag),
// judged on every byte the clients received: the original counts no
// response bodies, and the article's own figure is its public output
// bandwidth. Same source, same band as A3.
func etagWireClaim(r *result.Result, env Env, s onStack) result.Claim {
	c := result.Claim{ID: s.id("A3"), Measured: "not measured",
		Source:  result.Article("A", etagQuote, fmt.Sprintf("%.0f", env.Params.Clock.ChangeS)),
		Article: fmt.Sprintf("weak ETag + 304 for clients polling every %.0f s while data changes every %.0f s (ours; the article: about once a minute): public output bandwidth ÷ ~4", env.Params.Clock.PollS, env.Params.Clock.ChangeS),
		Vi: result.ClaimLines{
			Text: fmt.Sprintf("weak ETag + 304 cho các client short-polling mỗi %.0f s, trong khi dữ liệu đổi mỗi %.0f s (tham số của workshop; bài viết: khoảng mỗi phút một lần): “%s”",
				env.Params.Clock.PollS, env.Params.Clock.ChangeS, etagQuote),
		}}
	c.Tolerate("bytes received/request (status line + headers + body) of cache-aside ÷ etag %s (the article's ~4, on its public output bandwidth; the band is ours)",
		"số byte client nhận về mỗi request (status line + header + body), cache-aside ÷ etag, %s (~4 là của bài viết, đo trên băng thông output public; khoảng dung sai là của workshop)",
		course.ETagBand)
	s.says(&c)
	a, e := find(r, s.row(course.CacheAsidePoll)), find(r, s.row(course.ETagPoll))
	if a == nil || e == nil || e.PerRequest.PublicBytes == 0 {
		unmeasured(&c, r, s)
		return c
	}
	x := a.PerRequest.PublicBytes / e.PerRequest.PublicBytes
	c.Measure("%.0f → %.0f bytes received/request = ÷ %.2f (each 304 still carries a status line and headers)",
		"%.0f → %.0f byte nhận về mỗi request = ÷ %.2f (mỗi response 304 vẫn mang status line và header)",
		a.PerRequest.PublicBytes, e.PerRequest.PublicBytes, x)
	paceNote(&c, e, env)
	c.Reproduced = result.Verdict(a.Errors == 0 && e.Errors == 0 && course.ETagBand.Holds(x))
	return c
}
