package scenario

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/load"
	"github.com/peakload/workshop/internal/harness/original"
	"github.com/peakload/workshop/internal/harness/result"
)

// onStack is where a claim is judged: on the Go rows, or on a source's own
// stack's rows (ORIGINAL=1), whose names and claim ids carry the stack's.
type onStack struct {
	name   string // "" for Go; course.Fastify…
	en, vi string // how the claim's text says where: "in Go", "on the source's stack, here: Fastify on Node"
}

var (
	inGo      = onStack{en: "in Go", vi: "trong Go"}
	onFastify = sourcesStack(course.Fastify, "Fastify on Node, one process", "Fastify trên Node, một process")
)

// sourcesStack is a source's own stack, name, as a claim's text says where
// it was judged: "on the source's stack, here: " and the stack (en), in
// both languages; the report finds those claims by that opening
// (result.SourcesStack).
func sourcesStack(name, en, vi string) onStack {
	return onStack{name: name, en: result.SourcesStack + en, vi: "trên stack gốc của bài viết, chạy tại đây: " + vi}
}

// row is variant v on this stack: On(Fastify, v), or v itself in Go.
func (s onStack) row(v course.Variant) course.Variant {
	if s.name == "" {
		return v
	}
	return course.On(s.name, v)
}

// id is a claim's id on this stack: "A4" in Go, "A4-fastify" on Fastify.
func (s onStack) id(id string) string {
	if s.name == "" {
		return id
	}
	return id + "-" + s.name
}

// rows are this stack's names of vs, as a claim's Rows lists them.
func (s onStack) rows(vs ...course.Variant) []course.Variant {
	out := make([]course.Variant, len(vs))
	for i, v := range vs {
		out[i] = s.row(v)
	}
	return out
}

// says puts where the claim is judged before its text, in both languages:
// "[in Go] 645 req/s straight from PostgreSQL…".
func (s onStack) says(c *result.Claim) {
	c.Article = "[" + s.en + "] " + c.Article
	c.Vi.Text = "[" + s.vi + "] " + c.Vi.Text
}

// stacks are the stacks step r's claims are judged on: Go, and the
// source's own when ORIGINAL=1 asked for its rows or r holds them (a
// results file read back).
func stacks(r *result.Result, env Env, src onStack, v course.Variant) []onStack {
	if env.Original || find(r, src.row(v)) != nil {
		return []onStack{inGo, src}
	}
	return []onStack{inGo}
}

// onEachStack is a step's Claims when one claim says it all: judged in Go,
// then on the source's own stack when its row ran (steps 1, 2 and 4).
func onEachStack(v course.Variant, claim func(*result.Result, Env, onStack) result.Claim) func(*result.Result, Env) []result.Claim {
	return func(r *result.Result, env Env) []result.Claim {
		var out []result.Claim
		for _, s := range stacks(r, env, onFastify, v) {
			out = append(out, claim(r, env, s))
		}
		return out
	}
}

// judgedOnBoth says whether step n's claims are judged on both stacks:
// ORIGINAL=1 asked for the source's rows, or r, a results file read back
// (the docs, the report, the reference tests), holds them.
func judgedOnBoth(r *result.Result, env Env, n int) bool {
	if env.Original {
		return true
	}
	s, ok := course.Get(n)
	if !ok || r == nil {
		return false
	}
	return slices.ContainsFunc(r.Runs, func(x result.Run) bool { return s.IsOriginalRow(x.Variant) })
}

// fastify is article A's own server (originals/a-fastify/server.js) with a
// step's TTLs — the ones the step's main.go gives its Redis and its burst
// cache, so both stacks do the same work.
func fastify(redisTTL, burstTTL time.Duration) *original.Program {
	p := &original.Program{Runtime: original.Node, Script: "a-fastify/server.js"}
	for name, ttl := range map[string]time.Duration{"PEAKLOAD_REDIS_TTL_MS": redisTTL, "PEAKLOAD_BURST_TTL_MS": burstTTL} {
		if ttl > 0 { // 0: a step without that tier
			p.Env = append(p.Env, name+"="+strconv.FormatInt(ttl.Milliseconds(), 10))
		}
	}
	slices.Sort(p.Env) // the program's name (its String) is its rows' key
	return p
}

// withOriginal appends to vs, when ORIGINAL=1, the same rows measured on
// the source's own server p: same requests, same setup, named
// On(src, name).
func withOriginal(env Env, vs []load.Variant, src onStack, p *original.Program) []load.Variant {
	if !env.Original {
		return vs
	}
	out := vs
	for _, v := range vs {
		v.Name = src.row(v.Name)
		v.Original = p
		out = append(out, v)
	}
	return out
}

// unmeasured says why a claim on a source's stack has no verdict: its rows
// were skipped (the bench's note says why: Node or its packages not
// installed), or they ran but the counts the claim reads were not taken.
// A claim in Go keeps its placeholder: its rows are the step's own.
func unmeasured(c *result.Claim, r *result.Result, src onStack) {
	if src == inGo || len(r.Runs) == 0 {
		return // in Go, or not run yet: the placeholder stays
	}
	why := "its rows were not measured"
	for _, n := range r.Notes {
		if strings.Contains(n, original.Dir) || strings.Contains(n, "node") {
			why = n
		}
	}
	for _, x := range r.Runs {
		if strings.HasPrefix(string(x.Variant), src.name+"-") {
			why = "its rows ran, but the counts this claim reads were not taken"
		}
	}
	c.Measure("not measured on %s: %s", "chưa đo trên %[1]s: không đo được các hàng hay bộ đếm mà claim này cần (ghi chú dưới bảng nói vì sao)", src.name, why)
}

// uncounted: a row counted at the databases (an original) whose counts
// were divided by no request has no per-request figure to judge: 0 would
// read as "no query", a verdict the measurement cannot support.
func uncounted(rows ...*result.Run) bool {
	for _, x := range rows {
		if x.CountedAt == "services" && x.Served == 0 {
			return true
		}
	}
	return false
}
