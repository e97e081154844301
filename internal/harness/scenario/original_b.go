package scenario

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/load"
	"github.com/peakload/workshop/internal/harness/original"
	"github.com/peakload/workshop/internal/harness/proc"
	"github.com/peakload/workshop/internal/harness/result"
)

// Article B on its own stack (ORIGINAL=1): the article's Express and Koa,
// rows 10–15 of the author's README table, each with the MongoDB Node
// driver (originals/b-express, originals/b-koa), and the raw inserts from
// Node (originals/b-express/raw-insert.js). Their rows sit beside the Go
// rows of steps 0 and 6 under course.On's names; the claims that apply to
// them are judged again on those rows (onStack), under IDs of their own.

// bStack is one of article B's own stacks, as its rows and claims name it.
type bStack struct {
	name        string // course.Express: its rows are course.On(name, v)
	server      original.Program
	label, vi   string  // the stack, as a claim's text names it
	empty, post float64 // the author's README's empty GET and POST (req/s) on it
	rows        string  // those rows of the README, for the source
	rowsVi      string  // rows in Vietnamese, for step 0's README.vi.md
}

var bStacks = []bStack{
	{name: course.Express, server: original.Program{Runtime: original.Node, Script: "b-express/server.js"},
		label: "Express 5 on Node with the MongoDB Node driver", vi: "Express 5 trên Node với MongoDB Node driver",
		empty: 5498, post: 4026, rows: "rows 1 and 2 (Express)", rowsVi: "hàng 1 và 2 (Express)"},
	{name: course.Koa, server: original.Program{Runtime: original.Node, Script: "b-koa/server.js"},
		label: "Koa 3 on Node with the MongoDB Node driver", vi: "Koa 3 trên Node với MongoDB Node driver",
		empty: 10363, post: 8251, rows: "rows 10 and 11 (Koa)", rowsVi: "hàng 10 và 11 (Koa)"},
}

// AuthorEmptyGET is the author's README's empty GET on B's stack name
// (course.Express, course.Koa), in req/s, and the rows it is read from, in
// language l: step 0's README sets it beside the reference run's (make docs).
func AuthorEmptyGET(name string, l messages.Lang) (rps float64, rows string, ok bool) {
	for _, s := range bStacks {
		if s.name == name {
			if l == messages.Vietnamese {
				return s.empty, s.rowsVi, true
			}
			return s.empty, s.rows, true
		}
	}
	return 0, "", false
}

// rawNode is raw-insert.js's stack: the driver alone, no framework.
var rawNode = bStack{name: course.NodeJS, label: "the MongoDB Node driver on Node, no HTTP", vi: "MongoDB Node driver trên Node, không có HTTP"}

// onOriginal is v served by the stack's own server.
func (s bStack) onOriginal(v load.Variant) load.Variant {
	v.Name = course.On(s.name, v.Name)
	p := s.server
	v.Original = &p
	return v
}

// bCeilings are step 0's empty GET and POST on each of B's stacks, with
// the Go driver only: wrk's twin is a question about our driver, asked
// of the Go server.
func bCeilings(env Env) []load.Variant {
	env.Tool, env.HasWrk = "go", false
	var vs []load.Variant
	for _, s := range bStacks {
		for _, v := range ceilings(env, true) {
			vs = append(vs, s.onOriginal(v))
		}
	}
	return vs
}

// bWrites are step 6's write rows on each of B's stacks (from an emptied
// collection, as the Go rows start), then the raw inserts from Node.
func bWrites(env Env) []load.Variant {
	var vs []load.Variant
	for _, s := range bStacks[:1] { // Express: Koa's write rows are left out (writeStacks)
		for _, v := range httpWrites(env) {
			vs = append(vs, s.onOriginal(v))
		}
	}
	if _, err := rawCommand(context.Background(), env, load.Options{}, 1); err != nil {
		return vs // no Node here: the servers' rows are skipped with a note that says what to install
	}
	return append(vs,
		load.Variant{Name: course.On(course.NodeJS, course.RawSeq), Route: "insertOne, one at a time (Node)", Direct: nodeRawInserts(env, course.On(course.NodeJS, course.RawSeq), 1)},
		load.Variant{Name: course.On(course.NodeJS, course.Raw100), Route: "insertOne ×100, Promise.all (Node)", Direct: nodeRawInserts(env, course.On(course.NodeJS, course.Raw100), 100)})
}

// onStack judges claim on the stack's own rows: each run named
// course.On(s.name, v) is read as v, so the claim's arithmetic is the Go
// claim's, word for word. Its ID and text say which stack it judged; when
// the stack's rows did not run (no Node.js, no node_modules: the notes say
// which), it is not judged and says why.
func (s bStack) onStack(r *result.Result, claim func(*result.Result) result.Claim) result.Claim {
	own := *r
	own.Runs, own.Rounds, own.Notes = nil, nil, nil
	for _, x := range r.Runs {
		if base, ok := course.Off(s.name, x.Variant); ok {
			x.Variant = base
			own.Runs = append(own.Runs, x)
		}
	}
	c := claim(&own)
	c.ID += "-" + s.name
	s.where().says(&c)
	for i, row := range c.Rows {
		c.Rows[i] = course.On(s.name, row)
	}
	if len(own.Runs) == 0 {
		c.Reproduced = nil
		c.Measured = "not judged: the source's own stack did not run here (the notes say why; `make prefetch-originals` installs it)"
		c.Vi.Measured = "không xét: stack gốc của nguồn không chạy được ở đây (ghi chú bên dưới nói vì sao; `make prefetch-originals` sẽ cài nó)"
	}
	return c
}

// markInGo marks claims judged on the Go rows, beside their twins on the
// source's stack (ORIGINAL=1), as every step's do (onStack.says).
func markInGo(cs ...result.Claim) []result.Claim {
	for i := range cs {
		inGo.says(&cs[i])
	}
	return cs
}

// bPostClaims: B2 on each of B's stacks, against that stack's own figures
// in the author's README (Koa's rows 10 and 11 are not Express's).
func bPostClaims(r *result.Result) []result.Claim {
	var out []result.Claim
	for _, s := range bStacks {
		c := s.onStack(r, postClaim)
		if s.name != course.Express {
			x := fmt.Sprintf("%.2f", s.post/s.empty)
			c = s.retell(c, `README "Test Result" `+s.rows+" at "+result.RepoCommit, x,
				fmt.Sprintf("empty POST with the real payload %.0f req/s vs empty GET %.0f req/s: %s× (our arithmetic)", s.post, s.empty, x),
				fmt.Sprintf("empty POST với payload thật %.0f req/s so với empty GET %.0f req/s: %s× (phép tính của workshop)", s.post, s.empty, x))
		}
		out = append(out, c)
	}
	return out
}

// bWriteClaims: step 6's claims on Express — the article's stack, which the
// author's figures are — B4 on raw-insert.js, and on Koa the one write claim
// whose verdict and measured line quote no Express figure (B7: group ≥
// async), told with the README's Koa rows. Koa's other write rows are
// printed beside them, not judged. keptClaim holds on both.
func bWriteClaims(r *result.Result) []result.Claim {
	ex := bStacks[0]
	out := []result.Claim{rawNode.onStack(r, rawConcurrencyClaim)}
	for _, claim := range []func(*result.Result) result.Claim{batchClaim, bulkRateClaim, bulkCeilingClaim, bulkCPUClaim, asyncClaim, groupClaim} {
		out = append(out, ex.onStack(r, claim))
	}
	// Koa's write rows (the repository's rows 12–15) are left out: on
	// FerretDB 1.24 its unawaited group and bulk writes (tens of thousands
	// of events in a QUICK window) left MongoDB unable to count them for
	// minutes, and the bench never ended. Koa stays on step 0 (B2-koa).
	return append(out, ex.onStack(r, keptClaim))
}

// retell gives a claim judged on the stack's rows that stack's own figures
// from the author's README (Koa's rows are not Express's): its source and
// its text; the verdict and the measured line stay the claim's.
func (s bStack) retell(c result.Claim, ref, figure, en, vi string) result.Claim {
	c.Source = result.Repo(ref, figure)
	c.Article, c.Vi.Text = en, vi
	s.where().says(&c)
	return c
}

// where is the stack as every step's claims name theirs (onStack.says).
func (s bStack) where() onStack {
	return sourcesStack(s.name, s.label, s.vi)
}

// noneLost is B-kept's tolerance: events lost per write route.
var noneLost = course.AtMost(0)

// keptClaim: every event a write route answered for is in the database
// once the route is done — on sync, async, group and bulk alike.
func keptClaim(r *result.Result) result.Claim {
	c := result.Claim{ID: "B-kept", Measured: "not measured",
		Source:  result.Ours("the workshop's rule: accepted = persisted + dead-lettered, always"),
		Article: "answering before writing (async, group, bulk) must not lose what was answered for: once the load and its additional time are over, every accepted event is in the database",
		Rows:    []course.Variant{course.Sync, course.Async, course.Group, course.Bulk},
		Vi: result.ClaimLines{
			Text: "trả lời trước khi ghi (async, group, bulk) không được làm mất những gì đã nhận: hết tải và hết additional time, mọi event đã nhận đều nằm trong database",
		}}
	c.Tolerate("%s events lost per event accepted on each write route, counted at the database after the additional time; no HTTP errors",
		"ở mỗi route ghi, số event mất trên mỗi event đã nhận là %s, đếm tại database sau additional time; không có lỗi HTTP", noneLost.Figure())
	var parts, partsVi []string
	ok := true
	for _, v := range []course.Variant{course.Sync, course.Async, course.Group, course.Bulk} {
		x := find(r, v)
		if x == nil || x.Extra[result.Accepted] == 0 {
			continue
		}
		lost := max(0, extra(x, result.Accepted)-extra(x, result.Persisted))
		parts = append(parts, fmt.Sprintf("%s %.0f accepted, %.0f lost", v, extra(x, result.Accepted), lost))
		partsVi = append(partsVi, fmt.Sprintf("%s nhận %.0f, mất %.0f", v, extra(x, result.Accepted), lost))
		ok = ok && noneLost.Holds(lost) && x.Errors == 0
	}
	return judged(c, parts, partsVi, ok)
}

// rawReport is the last line raw-insert.js prints.
type rawReport struct {
	Phase       string         `json:"phase"`
	Concurrency int            `json:"concurrency"`
	Inserts     int64          `json:"inserts"`
	Errors      int64          `json:"errors"`
	Seconds     float64        `json:"seconds"`
	FirstError  string         `json:"first_error"`
	Latency     result.Latency `json:"latency_ms"`
}

// nodeRawInserts is B4's raw rows on their own stack: raw-insert.js, the
// MongoDB Node driver inserting one document per round trip, one at a
// time or `concurrency` awaited together, pinned to the step server's CPU
// (the article's "1 process node duy nhất"), for the bench's duration.
func nodeRawInserts(env Env, name course.Variant, concurrency int) func(ctx context.Context, o load.Options) (result.Run, error) {
	return func(ctx context.Context, o load.Options) (result.Run, error) {
		cmd, err := rawCommand(ctx, env, o, concurrency)
		if err != nil {
			return result.Run{}, err
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			return result.Run{}, err
		}
		if err := cmd.Start(); err != nil {
			return result.Run{}, fmt.Errorf("raw-insert.js: %w", err)
		}
		stop := func(err error) (result.Run, error) {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			return result.Run{}, err
		}
		if p := env.Fleet.Plan; p.Pinned {
			if err := proc.Pin(cmd.Process.Pid, p.Server); err != nil {
				return stop(err)
			}
		}
		var rep rawReport
		var cpu0 float64
		lines := bufio.NewScanner(out)
		for lines.Scan() {
			if err := json.Unmarshal(lines.Bytes(), &rep); err != nil {
				return stop(fmt.Errorf("raw-insert.js printed %q: %w", lines.Text(), err))
			}
			if rep.Phase == "start" { // the timed window opens: the database's CPU from here
				cpu0, rep.Phase = env.servicesCPU(), ""
			}
		}
		if err := cmd.Wait(); err != nil || rep.Seconds == 0 {
			return result.Run{}, errors.New(messages.T("scenario.raw_insert_failed", concurrency, err))
		}
		r := result.Run{VUs: concurrency, Requests: rep.Inserts, Errors: rep.Errors, DurationS: rep.Seconds, RPS: float64(rep.Inserts) / rep.Seconds,
			Latency: rep.Latency, FirstError: rep.FirstError, Tool: "direct",
			Extra: map[result.Key]float64{result.PersistedPerS: float64(rep.Inserts) / rep.Seconds, result.DBRoundTripsPerReq: 1}}
		dbCPU(&r, env, cpu0, rep.Seconds, rep.Inserts)
		if o.Progress != nil {
			fmt.Fprintf(o.Progress, "  %-22s %5.1fs  %9d ins  %9.0f ins/s\n", name, rep.Seconds, rep.Inserts, r.RPS)
		}
		return r, ctx.Err()
	}
}

// rawCommand is raw-insert.js with the stack's MongoDB and the bench's
// window, the event the write routes are sent.
func rawCommand(ctx context.Context, env Env, o load.Options, concurrency int) (*exec.Cmd, error) {
	root, err := original.Root()
	if err != nil {
		return nil, err
	}
	p := original.Program{Runtime: original.Node, Script: "b-express/raw-insert.js"}
	bin, args, err := p.Command(root)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(slices.Concat(os.Environ(), env.Fleet.Env),
		fmt.Sprintf("RAW_CONCURRENCY=%d", concurrency), fmt.Sprintf("RAW_DURATION_S=%g", o.Duration.Seconds()),
		fmt.Sprintf("RAW_WARMUP_S=%g", o.Warmup.Seconds()), "RAW_EVENT="+string(env.Params.Event))
	cmd.Stderr = os.Stderr
	return cmd, nil
}
