package scenario

import (
	"encoding/json"
	"math"

	"github.com/valyala/fasthttp"

	"github.com/peakload/workshop/internal/given/accounts"
	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/given/routes"
	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/load"
	"github.com/peakload/workshop/internal/harness/result"
)

// Step 8: logins under the guide's load (ab -c 20, as article C retells it): each virtual user logs
// in as its own demo user, against the shipped service (/v1) and the
// learner's (/v2). The server gets every CPU but the driver's: the lesson
// is work serialised on one of them.
func init() {
	p := params.Load()
	register(8, Step{
		VUs: p.Login.VUs,
		Variants: func(env Env) []load.Variant {
			v := func(name course.Variant, path string) load.Variant {
				return load.Variant{Name: name, Route: routes.POST(path), Method: "POST", Prepare: loginRequest(env, path), LockWait: true}
			}
			rows := []load.Variant{v(course.Before, routes.LoginV1), v(course.After, routes.LoginV2)}
			if env.Original {
				rows = append(rows, nodeLoginRows(env)...)
			}
			return rows
		},
		Claims: func(r *result.Result, env Env) []result.Claim {
			claims := []result.Claim{speedupClaim(r), latencyClaim(r)}
			if judgedOnBoth(r, env, 8) {
				claims = append(claims, nodeSpeedupClaim(r))
			}
			return claims
		},
		Ours:    step8Ours,
		Rewards: []string{"C1", "C2"}, // logins per second and latency, after ÷ before
	})
}

// loginRequest sends the credentials of demo user (VU id mod users): one
// user per device, as in real traffic, so no account is logged into by two
// users at once.
func loginRequest(env Env, path string) func(vu *load.VU, req *fasthttp.Request) {
	n := env.Params.Login.Users
	bodies := make([][]byte, n)
	for i := range bodies {
		bodies[i], _ = json.Marshal(accounts.Credentials{Email: accounts.DemoEmail(i), Password: accounts.DemoPassword(i)})
	}
	return func(vu *load.VU, req *fasthttp.Request) {
		req.SetRequestURI(path)
		req.Header.SetContentType("application/json")
		req.SetBodyRaw(bodies[vu.ID%n])
	}
}

// serverCPUs is how many CPUs the step's server had: the bound on its speed-up.
func serverCPUs(r *result.Result) int {
	if r.Machine.ServerGOMAXPROCS > 0 {
		return r.Machine.ServerGOMAXPROCS
	}
	return 1
}

// serialised is the seconds of lock wait per second (load.lockWait: the
// mean number of requests waiting) from which after's logins are still
// serialised. Whatever the CPUs did, a lock held across the ~20 ms
// password check keeps all but one of the 20 users waiting: before reads
// about 19 (the profile of issue 32: 126 s in 8 s, 16; a QUICK run, 65:
// the runtime samples one wait in 8, noisy over a few requests); held only
// around the lockout's map, about 0 (0.05 in issue 32, 0 in a QUICK run).
// One waiting login is far from both: a lock still held across checks.
const serialised = 1.0

// c1Quote is the guide's figure as article C carries it: C1's source on
// either stack.
const c1Quote = "thông lượng tăng từ khoảng 5,3 lên 19,5 req"

var c1Source = result.Guide(c1Quote, "3.7")

// C1's and C2's tolerances (ours): the speed-up per core the hashing can
// spread on (at most libuv's pool, nodePool), and how far the latency
// ratio may stray from the req/s ratio (Little's law).
var (
	perCore     = course.AtLeast(0.75)
	littleSlack = course.AtMost(0.15)
)

// speedupClaim: C — pbkdf2Sync → pbkdf2, 5.3 → 19.5 req/s (×3.7), the
// guide's example. Node's async pbkdf2 runs on libuv's pool, 4 threads by
// default: on 4 cores or more, ×3.7 would be 0.93 of that ×4 (our reading:
// the guide gives no core count). Here the bound is the server's CPU
// count; the verdict asks for 0.75 of it.
func speedupClaim(r *result.Result) result.Claim {
	c := result.Claim{ID: "C1", Measured: "not measured",
		Source:  c1Source,
		Article: "[in Go] the guide's example, as article C summarises it: pbkdf2Sync → async pbkdf2: 5.3 → 19.5 req/s (×3.7, our arithmetic) under ab -c 20; 51.8% of ticks in node::crypto::PBKDF2",
		Vi: result.ClaimLines{
			Text: "[trong Go] ví dụ của hướng dẫn, như bài C tóm tắt: đổi pbkdf2Sync sang pbkdf2 bất đồng bộ thì “" + c1Quote + "”/s (×3.7, phép tính của workshop) khi chạy ab -c 20; 51.8% số tick nằm trong node::crypto::PBKDF2",
		}}
	c.Tolerate("ours, scaled from the guide's ×3.7 (our arithmetic): after ÷ before %s × min(server CPUs, %s), the cores the hashing can spread on",
		"của workshop, suy từ ×3.7 của hướng dẫn (phép tính của workshop): after ÷ before %s × min(số CPU của server, %s), tức số core mà việc hash có thể chạy song song", perCore, course.Factor(nodePool))
	b, a := find(r, course.Before), find(r, course.After)
	if b == nil || a == nil || b.RPS == 0 {
		return c
	}
	n := serverCPUs(r)
	bound := math.Min(float64(n), nodePool)
	x := a.RPS / b.RPS
	c.Measure("%.1f → %.1f req/s (×%.2f) with the server on %d CPU(s): bound ×%.0f here; server busy %.0f%% → %.0f%% (100%% = one CPU)",
		"%.1f → %.1f req/s (×%.2f) với server chạy trên %d CPU: ở đây tối đa chỉ được ×%.0f; server bận %.0f%% → %.0f%% (100%% = một CPU)",
		b.RPS, a.RPS, x, n, bound, b.RPS*b.PerRequest.ServerCPUus/1e4, a.RPS*a.PerRequest.ServerCPUus/1e4)
	if n < 4 {
		c.MeasureMore("; ×3.7 needs 4 CPUs for the server, this machine gives it %d", "; muốn ×3.7 thì server cần 4 CPU, máy này chỉ cho nó %d", n)
	}
	if w, ok := a.Extra[result.LockWaiting]; ok && w >= serialised {
		c.MeasureMore("; after's logins still waited on a lock %.1f s per second (before: %.1f): they are still serialised (make step-8 profile shows where)",
			"; các lượt login của after vẫn phải chờ lock %.1f s mỗi giây (before: %.1f): chúng vẫn chạy lần lượt từng cái một (make step-8 profile chỉ ra chờ ở đâu)",
			w, extra(b, result.LockWaiting))
	}
	c.Reproduced = result.Verdict(n >= 2 && perCore.HoldsFor(x, bound) && a.Errors == 0 && b.Errors == 0)
	c.Rows = []course.Variant{course.Before, course.After} // not the source's stack's rows (C1-node)
	return c
}

// latencyClaim: C — mean latency 3.75 s → 1.03 s. ab prints its mean as
// concurrency × time ÷ requests, so the guide's two figures are C1's two
// restated: C2 is no second finding. Ours are timed request by request, so
// the verdict checks our measurement instead: Little's law (20 users ÷
// req/s) must agree with the latencies we timed.
func latencyClaim(r *result.Result) result.Claim {
	const quote = "độ trễ trung bình giảm từ khoảng 3,75 xuống 1,03 giây"
	c := result.Claim{ID: "C2", Measured: "not measured",
		Source:  result.Guide(quote, "3.77"),
		Article: "the guide's example, as article C summarises it: mean latency 3.75 s → 1.03 s — C1's figures restated, not a second finding: ab computes its mean as concurrency × time ÷ requests (our arithmetic: 20 / 5.3 req/s = 3.77 s, 20 / 19.5 = 1.03 s)",
		Vi: result.ClaimLines{
			Text: "ví dụ của hướng dẫn, như bài C tóm tắt: “" + quote + "”: chính là số của C1 nói lại, không phải một phát hiện thứ hai; ab tính latency trung bình bằng concurrency × thời gian ÷ số request (phép tính của workshop: 20 / 5.3 req/s = 3.77 s, 20 / 19.5 = 1.03 s)",
		}}
	c.Tolerate("ours: mean latency before ÷ after %s × min(server CPUs, %s), as C1, and within %s of the req/s ratio (Little's law, 20 users)",
		"của workshop: latency trung bình before ÷ after %s × min(số CPU của server, %s), như C1, và lệch ≤ %s so với tỉ số req/s (định luật Little, 20 user)",
		perCore, course.Factor(nodePool), littleSlack.Percent())
	b, a := find(r, course.Before), find(r, course.After)
	if b == nil || a == nil || a.Latency.Mean == 0 || b.RPS == 0 {
		return c
	}
	lx, rx := b.Latency.Mean/a.Latency.Mean, a.RPS/b.RPS
	c.Measure("mean %.0f ms → %.0f ms (÷ %.2f; req/s ×%.2f); Little's law with %d users: %.0f ms → %.0f ms",
		"trung bình %.0f ms → %.0f ms (÷ %.2f; req/s ×%.2f); định luật Little với %d user: %.0f ms → %.0f ms",
		b.Latency.Mean, a.Latency.Mean, lx, rx, b.VUs, 1000*float64(b.VUs)/b.RPS, 1000*float64(a.VUs)/a.RPS)
	bound := math.Min(float64(serverCPUs(r)), nodePool)
	c.Reproduced = result.Verdict(serverCPUs(r) >= 2 && perCore.HoldsFor(lx, bound) && littleSlack.Holds(math.Abs(lx/rx-1)))
	c.Rows = []course.Variant{course.Before, course.After}
	return c
}

// step8Ours: logins per second and mean latency once the lock is narrowed.
func step8Ours(r *result.Result, _ Env, l messages.Lang) string {
	mean := func(x *result.Run) float64 { return x.Latency.Mean }
	return Say(l, "req/s %s on %d server CPUs; mean %.0f → %.0f ms", "req/s %s trên %d CPU của server; latency trung bình %.0f → %.0f ms", Times(RPS(r, course.After), RPS(r, course.Before)), len(r.Machine.CPUPlan.Server), Field(find(r, course.Before), mean), Field(find(r, course.After), mean))
}
