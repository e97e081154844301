package scenario

import (
	"math"

	"github.com/peakload/workshop/internal/given/routes"
	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/load"
	"github.com/peakload/workshop/internal/harness/original"
	"github.com/peakload/workshop/internal/harness/result"
)

// nodePool is libuv's thread pool the async login hashes on: Node's
// default, set explicitly so the table says what ran.
const nodePool = 4

// nodeLogin is originals/c-crypto/server.js in one of the guide's two
// modes: "sync" (crypto.pbkdf2Sync) or "async" (crypto.pbkdf2).
func nodeLogin(mode string) *original.Program {
	env := []string{"MODE=" + mode}
	if mode == "async" {
		env = append(env, "UV_THREADPOOL_SIZE=4")
	}
	return &original.Program{Runtime: original.Node, Script: "c-crypto/server.js", Env: env}
}

// nodeLoginRows are step 8 on the source's stack (ORIGINAL=1): the same
// logins, the same users and the same PBKDF2 work as the Go rows, served
// by Express on Node, pinned to the Go server's CPUs. before is the
// guide's pbkdf2Sync, after its pbkdf2.
func nodeLoginRows(env Env) []load.Variant {
	row := func(v course.Variant, path, mode, how string) load.Variant {
		return load.Variant{Name: course.On(course.NodeJS, v), Route: routes.POST(path) + " (" + how + ", Node)", Method: "POST",
			Prepare: loginRequest(env, path), Original: nodeLogin(mode)}
	}
	return []load.Variant{
		row(course.Before, routes.LoginV1, "sync", "crypto.pbkdf2Sync"),
		row(course.After, routes.LoginV2, "async", "crypto.pbkdf2"),
	}
}

// nodeSpeedupClaim: C1 on the source's stack, here. Async pbkdf2 hashes
// on libuv's pool of 4 threads, but the process is pinned to the Go
// server's CPUs, and a thread runs only on those: the pool has
// min(those CPUs, 4) to hash on, the event loop sharing them (its part
// of a login is small beside the hash). The same bar as C1's.
func nodeSpeedupClaim(r *result.Result) result.Claim {
	c := result.Claim{ID: "C1-node", Measured: "not measured", Source: c1Source,
		Article: "[" + result.SourcesStack + "Express 5 on Node, crypto.pbkdf2Sync → crypto.pbkdf2 on libuv's pool, UV_THREADPOOL_SIZE=4] " +
			"the guide's 5.3 → 19.5 req/s (×3.7, our arithmetic) under ab -c 20",
		Vi: result.ClaimLines{
			Text: "[trên stack gốc của bài viết, chạy tại đây: Express 5 trên Node, crypto.pbkdf2Sync → crypto.pbkdf2 chạy trên thread pool của libuv, UV_THREADPOOL_SIZE=4] " +
				"“" + c1Quote + "”/s của hướng dẫn (×3.7, phép tính của workshop) khi chạy ab -c 20",
		}}
	c.Tolerate("ours, as C1: after ÷ before %s × min(the CPUs the Node process is pinned to — the Go server's, the only ones its pool threads can run on —, %s pool threads)",
		"của workshop, như C1: after ÷ before %s × min(số CPU mà process Node bị ghim vào — chính các CPU của server Go, chỉ trên đó các thread của pool mới chạy được —, %s thread của pool)",
		perCore, course.Factor(nodePool))
	before, after := course.On(course.NodeJS, course.Before), course.On(course.NodeJS, course.After)
	if skippedOriginal(&c, r, before, after) {
		return c
	}
	b, a := find(r, before), find(r, after)
	if b.RPS == 0 {
		return c
	}
	n := serverCPUs(r) // the Go server's GOMAXPROCS: the CPUs it, and the original, are pinned to
	bound := math.Min(float64(n), nodePool)
	x := a.RPS / b.RPS
	c.Measure("%.1f → %.1f req/s (×%.2f) with Node pinned to %d CPU(s): bound ×%.0f here",
		"%.1f → %.1f req/s (×%.2f) với Node bị ghim vào %d CPU: ở đây tối đa chỉ được ×%.0f", b.RPS, a.RPS, x, n, bound)
	if n < nodePool {
		c.MeasureMore("; ×3.7 needs the pool's 4 threads on 4 free cores, this machine gives Node %d", "; muốn ×3.7 thì 4 thread của pool cần 4 core rảnh, máy này chỉ cho Node %d", n)
	}
	c.Reproduced = result.Verdict(n >= 2 && perCore.HoldsFor(x, bound) && a.Errors == 0 && b.Errors == 0)
	c.Rows = []course.Variant{before, after}
	return c
}
