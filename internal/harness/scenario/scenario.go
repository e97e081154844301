// Package scenario defines what `make step-N bench` runs for each step: the
// variants (one table row each), the services they need, and how the
// claims are judged from what was measured. Each claim declares its
// source (result.Source) beside it: an article's sentence, the author's
// repository, the guide article C summarises, or ours. The load parameters
// come from k6/lib/params.json, which the k6 scripts read too.
package scenario

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"
	"github.com/valyala/fasthttp"

	"github.com/peakload/workshop/internal/given/catalog"
	"github.com/peakload/workshop/internal/given/events"
	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/given/routes"
	"github.com/peakload/workshop/internal/harness/balancer"
	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/load"
	"github.com/peakload/workshop/internal/harness/result"
)

// Step is one lesson's bench: its manifest entry (manifest.go) and what
// `make step-N bench` measures.
type Step struct {
	Manifest
	VUs int // the article's concurrency for this step, when not the default
	// Rounds measures every variant this many times, interleaved, in the
	// same total time, and keeps each one's best (step 9: rows are compared
	// with each other, and a shared machine drifts over minutes).
	Rounds int
	// Profile names the variant `make step-N profile` loads (default: the
	// last, the learner's "after").
	Profile course.Variant
	// Variants lists the rows to measure, in table order.
	Variants func(env Env) []load.Variant
	// Claims judges the step's claims (each with its source) from the runs.
	Claims func(r *result.Result, env Env) []result.Claim
	// Tables, when set, summarises the runs in the step's own shape.
	Tables func(r *result.Result) []result.Table
	// Ours writes the step's "ours (reference run)" cell of README.md's
	// step table from its reference run, in language l (ours.go; `make
	// docs` prints it).
	Ours func(r *result.Result, env Env, l messages.Lang) string
	// Rewards, in a step with an exercise, are the ids of the claims the
	// learner's code controls: judged on counters or ratios the exercise
	// changes, so the reference run reproduces them (issue 32: "a right
	// answer is rewarded at every step"; TestTheReferenceRewardsEveryExercise).
	// The step's other claims may be bounded by the store, the runtime or
	// the machine.
	Rewards []string
	// KeepOnBusy are the ids of the claims judged on counts alone (a rate
	// part, if any, a bound its rows clear many times over: LooseRate): a
	// busy machine does not move them, so it does not withhold their
	// verdict. Every other claim is withheld there. Declared here, beside
	// the claims, it is what TestWhichClaimsABusyMachineWithholds holds
	// result.MachineBound (which reads the tolerance) to.
	KeepOnBusy []string
	// Capacity names the variants CAPACITY=1 searches (default: every
	// variant the Go driver loads over HTTP without pacing or a settle).
	Capacity []course.Variant
}

// Env is what a scenario may use while it builds its variants.
type Env struct {
	Params params.Params
	Tool   string // "go", "wrk" or "" (both, where wrk can run the variant)
	HasWrk bool
	Pool   *pgxpool.Pool // the catalogue, for steps that reset or inspect data
	Redis  *redis.Client // for steps that flush the cache between variants
	Mongo  *events.Store // for the raw-insert baselines of the write path
	Quick  bool
	// Original (ORIGINAL=1) adds the sources' own stacks' rows (originals/,
	// load.Variant.Original) beside the Go rows; where Node.js or the
	// packages are missing, the bench skips those rows with a note.
	Original bool
	// Fleet starts more copies of the step's server (step 10's replicas):
	// the built binary, its environment, the CPU plan, the workshop's
	// directory. The bench fills it once the server is built.
	Fleet balancer.Spec
	// ServicesCPU returns the CPU seconds the stack's processes have used
	// so far (native stack; nil or 0 when not measured): the database's
	// cost per document in the raw-insert baselines.
	ServicesCPU func() float64
}

// servicesCPU reads ServicesCPU, 0 when it is not measured.
func (e Env) servicesCPU() float64 {
	if e.ServicesCPU == nil {
		return 0
	}
	return e.ServicesCPU()
}

// Skew is the id distribution from the shared parameters.
func (e Env) Skew() catalog.Skew {
	c := e.Params.Catalog
	return catalog.NewSkew(c.Items, c.HotItems, c.HotShare, c.HotStride, c.ZipfS)
}

var steps []Step

// register adds step n's bench; what the step is comes from the manifest.
func register(n int, s Step) {
	s.Manifest = declared(n)
	steps = append(steps, s)
}

// All returns the steps in order.
func All() []Step {
	out := slices.Clone(steps)
	slices.SortFunc(out, func(a, b Step) int { return a.N - b.N })
	return out
}

// Steps returns the manifest: every declared step, in order.
func Steps() []Manifest { return manifest() }

// Get returns step n.
func Get(n int) (Step, error) {
	for _, s := range steps {
		if s.N == n {
			return s, nil
		}
	}
	return Step{}, errors.New(messages.T("scenario.no_bench", n, numbers()))
}

func numbers() []int {
	var ns []int
	for _, s := range All() {
		ns = append(ns, s.N)
	}
	return ns
}

// ceilings returns the empty GET (and, with post, the empty POST) rows for
// the Go driver and, where installed and asked for, wrk.
func ceilings(env Env, post bool) []load.Variant {
	get := load.Variant{Name: course.EmptyGet, Route: routes.GET(routes.Empty), Method: "GET", Path: routes.Empty}
	vs := []load.Variant{get}
	if post {
		vs = append(vs, load.Variant{Name: course.EmptyPost, Route: routes.POST(routes.Empty), Method: "POST", Path: routes.Empty, Body: env.Params.Event})
	}
	var out []load.Variant
	for _, v := range vs {
		out = append(out, withTools(env, v)...)
	}
	return out
}

// withTools returns v for the Go driver and, where installed and asked
// for, its wrk twin (course.Variant.Wrk).
func withTools(env Env, v load.Variant) []load.Variant {
	var out []load.Variant
	if env.Tool != "wrk" {
		out = append(out, v)
	}
	if env.HasWrk && env.Tool != "go" {
		w := v
		w.Name, w.Tool = v.Name.Wrk(), "wrk"
		out = append(out, w)
	}
	return out
}

// itemRequest writes GET route with a hot-skewed id into req. The URI is
// assembled in a per-user buffer: the driver must not allocate per request.
func itemRequest(env Env, route string) func(vu *load.VU, req *fasthttp.Request) {
	skew := env.Skew()
	prefix := routes.Prefix(route)
	return func(vu *load.VU, req *fasthttp.Request) {
		buf, _ := vu.State.([]byte)
		buf = append(buf[:0], prefix...)
		buf = strconv.AppendInt(buf, int64(skew.Pick(vu.Rand)), 10)
		vu.State = buf
		req.SetRequestURIBytes(buf)
	}
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// flushRedis empties the cache so a variant starts cold, as after a deploy.
func flushRedis(env Env) func(ctx context.Context) error {
	return func(ctx context.Context) error {
		if env.Redis == nil {
			return nil
		}
		return env.Redis.FlushDB(ctx).Err()
	}
}

// extra reads a step-specific figure of a run (0 when absent).
func extra(r *result.Run, key result.Key) float64 {
	if r == nil {
		return 0
	}
	return r.Extra[key]
}

// FillSources gives the claims of a result recorded before claims carried
// their source (the reference runs) the source their step declares now,
// so the report and the slides never print a claim of ours as the article's.
func (s Step) FillSources(r *result.Result) {
	if s.Claims == nil {
		return
	}
	declared := s.Claims(&result.Result{}, Env{Params: params.Load()})
	for i := range r.Claims {
		for _, d := range declared {
			if r.Claims[i].ID == d.ID && r.Claims[i].Source.Kind == "" {
				r.Claims[i].Source = d.Source
			}
		}
	}
}

// judged is c with its measured line, its parts joined in each language,
// and its verdict ok; with no part measured, c stays as declared (its
// placeholder, no verdict).
func judged(c result.Claim, parts, partsVi []string, ok bool) result.Claim {
	if len(parts) == 0 {
		return c
	}
	c.Measured, c.Vi.Measured = strings.Join(parts, "; "), strings.Join(partsVi, "; ")
	c.Reproduced = result.Verdict(ok)
	return c
}

// find is r's run of variant v, nil when it has none.
func find(r *result.Result, v course.Variant) *result.Run { return r.Find(v) }

// FillText gives the claims of a result read back from JSON, which keeps
// English only, the Vietnamese lines the step writes now (issue 24): each
// line whose English is the stored one, so a reworded claim stays English
// rather than printing another sentence's translation. The claims are
// judged again on a copy (they may append notes) only to write the lines.
func (s Step) FillText(r *result.Result) {
	if s.Claims == nil {
		return
	}
	cp := *r
	cp.Notes = slices.Clone(r.Notes)
	again := s.Claims(&cp, Env{Params: params.Load()})
	for i := range r.Claims {
		c := &r.Claims[i]
		for _, d := range again {
			if d.ID != c.ID {
				continue
			}
			if d.Article == c.Article {
				c.Vi.Text = d.Vi.Text
			}
			if d.Tolerance == c.Tolerance {
				c.Vi.Tolerance = d.Vi.Tolerance
			}
			if d.Measured == c.Measured {
				c.Vi.Measured = d.Vi.Measured
			}
		}
	}
}
