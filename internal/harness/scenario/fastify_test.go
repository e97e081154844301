package scenario

import (
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/result"
)

// Article A's claims on Fastify (ORIGINAL=1): present only when asked for
// or recorded, judged from the Fastify rows both ways, and not judged —
// saying why — when those rows were skipped.
func TestFastifyClaims(t *testing.T) {
	env := Env{Params: params.Load(), Original: true}
	on := func(v course.Variant) course.Variant { return course.On(course.Fastify, v) }
	run := func(name course.Variant, rps float64, pr result.PerRequest, extra map[result.Key]float64) result.Run {
		return result.Run{Variant: name, RPS: rps, Requests: 10000, DurationS: 10, VUs: 200, PerRequest: pr, Extra: extra}
	}
	ttl := env.Params.Scaled(env.Params.Clock.RedisTTLS).Seconds()
	expiries := 10 / ttl
	cases := []struct {
		step      int
		id        string
		good, bad []result.Run
	}{
		{1, "A1-fastify",
			[]result.Run{run(on(course.EmptyGet), 20000, result.PerRequest{}, nil), run(on(course.DirectDB), 900, result.PerRequest{DBQueries: 1}, nil)},
			[]result.Run{run(on(course.EmptyGet), 20000, result.PerRequest{}, nil), run(on(course.DirectDB), 900, result.PerRequest{DBQueries: 2}, nil)}},
		{2, "A2-fastify",
			[]result.Run{run(on(course.DirectDB), 900, result.PerRequest{DBQueries: 1}, nil), run(on(course.CacheAside), 9000, result.PerRequest{DBQueries: 0.01}, nil)},
			[]result.Run{run(on(course.DirectDB), 900, result.PerRequest{DBQueries: 1}, nil), run(on(course.CacheAside), 2000, result.PerRequest{DBQueries: 0.01}, nil)}},
		{3, "A3-fastify",
			[]result.Run{run(on(course.CacheAsidePoll), 1300, result.PerRequest{PublicBytes: 1600}, nil), run(on(course.ETagPoll), 1300, result.PerRequest{PublicBytes: 400}, nil)},
			[]result.Run{run(on(course.CacheAsidePoll), 1300, result.PerRequest{PublicBytes: 1600}, nil), run(on(course.ETagPoll), 1300, result.PerRequest{PublicBytes: 550}, nil)}},
		{4, "A4-fastify",
			[]result.Run{run(on(course.CacheAside), 5000, result.PerRequest{}, map[result.Key]float64{result.DBQueriesInWindow: 100 * expiries}),
				run(on(course.Singleflight), 5000, result.PerRequest{}, map[result.Key]float64{result.DBQueriesInWindow: expiries})},
			[]result.Run{run(on(course.CacheAside), 5000, result.PerRequest{}, map[result.Key]float64{result.DBQueriesInWindow: 100 * expiries}),
				run(on(course.Singleflight), 5000, result.PerRequest{}, map[result.Key]float64{result.DBQueriesInWindow: 3 * expiries})}},
		{5, "A5-fastify",
			[]result.Run{run(on(course.EmptyGet), 20000, result.PerRequest{}, nil), run(on(course.Singleflight), 9000, result.PerRequest{RedisBytes: 1500}, nil),
				run(on(course.Burst), 10000, result.PerRequest{RedisBytes: 200}, nil)},
			[]result.Run{run(on(course.EmptyGet), 20000, result.PerRequest{}, nil), run(on(course.Singleflight), 9000, result.PerRequest{RedisBytes: 1500}, nil),
				run(on(course.Burst), 10000, result.PerRequest{RedisBytes: 600}, nil)}},
		{5, "A5-rps-fastify",
			[]result.Run{run(on(course.EmptyGet), 20000, result.PerRequest{}, nil), run(on(course.Singleflight), 9000, result.PerRequest{RedisBytes: 1500}, nil),
				run(on(course.Burst), 10000, result.PerRequest{RedisBytes: 200}, nil)},
			[]result.Run{run(on(course.EmptyGet), 20000, result.PerRequest{}, nil), run(on(course.Singleflight), 9000, result.PerRequest{RedisBytes: 1500}, nil),
				run(on(course.Burst), 18000, result.PerRequest{RedisBytes: 200}, nil)}},
	}
	claim := func(t *testing.T, step int, id string, r *result.Result, env Env) *result.Claim {
		t.Helper()
		s, err := Get(step)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range s.Claims(r, env) {
			if c.ID == id {
				return &c
			}
		}
		return nil
	}
	for _, c := range cases {
		t.Run(c.id, func(t *testing.T) {
			for _, x := range []struct {
				runs []result.Run
				want bool
			}{{c.good, true}, {c.bad, false}} {
				got := claim(t, c.step, c.id, &result.Result{Runs: x.runs}, env)
				if got == nil {
					t.Fatal("not declared with ORIGINAL=1")
				}
				if got.Reproduced == nil || *got.Reproduced != x.want {
					t.Errorf("%v (%s), want %v", got.Reproduced, got.Measured, x.want)
				}
				if !strings.HasPrefix(got.Article, "[on the source's stack, here: Fastify on Node") {
					t.Errorf("the text does not say where it is judged: %q", got.Article)
				}
			}
			// a results file read back has the rows: the claim is there without ORIGINAL=1
			if claim(t, c.step, c.id, &result.Result{Runs: c.good}, Env{Params: env.Params}) == nil {
				t.Error("dropped from a run that measured its rows")
			}
			if claim(t, c.step, c.id, &result.Result{}, Env{Params: env.Params}) != nil {
				t.Error("declared without ORIGINAL=1 and without its rows")
			}
			// Node missing: the Go rows ran, the original's were skipped with a note
			skipped := &result.Result{Runs: []result.Run{run("empty-get", 1, result.PerRequest{}, nil)},
				Notes: []string{"the rows of node a-fastify/server.js skipped: that server did not start (no node on PATH)"}}
			got := claim(t, c.step, c.id, skipped, env)
			if got.Reproduced != nil || !strings.Contains(got.Measured, "not measured on fastify") || !strings.Contains(got.Measured, "no node on PATH") {
				t.Errorf("rows skipped: %v (%s), want no verdict and the note", got.Reproduced, got.Measured)
			}
		})
	}
}

// Counted at the databases but divided by no request: no per-request
// figure, so no verdict (0 would read as "no query").
func TestFastifyClaimsNeedTheirCounts(t *testing.T) {
	on := func(v course.Variant) course.Variant { return course.On(course.Fastify, v) }
	r := &result.Result{Runs: []result.Run{
		{Variant: on(course.EmptyGet), RPS: 20000, CountedAt: "services", Served: 40000},
		{Variant: on(course.DirectDB), RPS: 900, CountedAt: "services"},
	}}
	c := directClaim(r, Env{}, onFastify)
	if c.Reproduced != nil || !strings.Contains(c.Measured, "the counts this claim reads were not taken") {
		t.Errorf("%v (%s), want not judged", c.Reproduced, c.Measured)
	}
}

// The original's rows are the Go rows again, on Fastify, only with ORIGINAL=1.
func TestFastifyRows(t *testing.T) {
	for n := 1; n <= 5; n++ {
		s, _ := Get(n)
		plain := s.Variants(Env{Params: params.Load()})
		both := s.Variants(Env{Params: params.Load(), Original: true})
		if len(both) != 2*len(plain) {
			t.Fatalf("step %d: %d rows with ORIGINAL=1, want the %d Go rows twice", n, len(both), len(plain))
		}
		for i, v := range plain {
			o := both[len(plain)+i]
			if v.Original != nil || o.Original == nil || o.Name != course.On(course.Fastify, v.Name) || o.Route != v.Route {
				t.Errorf("step %d: row %q on Fastify is %q (%v)", n, v.Name, o.Name, o.Original)
			}
		}
	}
}
