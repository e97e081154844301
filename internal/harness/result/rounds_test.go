package result

import (
	"strings"
	"testing"
)

func rounds(rps ...[2]float64) [][]Run {
	var out [][]Run
	for _, r := range rps {
		out = append(out, []Run{{Variant: "before", RPS: r[0]}, {Variant: "after", RPS: r[1]}})
	}
	return out
}

// A row is its median round (a whole run), with the rounds' spread and
// every round's errors; with best (step 9), its fastest.
func TestCombineMedianAndBest(t *testing.T) {
	rs := rounds([2]float64{100, 900}, [2]float64{300, 500}, [2]float64{200, 700})
	rs[0][1].Errors, rs[0][1].FirstError = 2, "HTTP 500"
	rs[2][1].Errors = 1
	med := Combine(rs, false)
	if len(med) != 2 || med[0].Variant != "before" || med[0].RPS != 200 || med[1].RPS != 700 {
		t.Fatalf("median rows: %+v", med)
	}
	if s := med[1].Spread; s == nil || s.Rounds != 3 || s.RPSMin != 500 || s.RPSMax != 900 {
		t.Errorf("spread %+v, want 3 rounds 500–900", s)
	}
	if med[1].Errors != 3 || med[1].FirstError != "HTTP 500" {
		t.Errorf("errors %d (%q), want all 3 rounds' (the first error)", med[1].Errors, med[1].FirstError)
	}
	if even := Combine(rounds([2]float64{100, 1}, [2]float64{300, 1}), false); even[0].RPS != 100 {
		t.Errorf("two rounds: %v req/s, want the slower of the middle two", even[0].RPS)
	}
	best := Combine(rs, true)
	if best[0].RPS != 300 || best[0].Extra[RPSWorstRound] != 100 || best[0].Extra[Rounds] != 3 || best[1].Errors != 3 {
		t.Errorf("best rows: %+v", best)
	}
	if one := Combine(rounds([2]float64{100, 200}), false); one[0].Spread != nil || one[0].RPS != 100 {
		t.Errorf("one round: %+v, want the run as it is", one[0])
	}
	if rs[0][1].Extra != nil {
		t.Error("Combine wrote into the rounds it was given")
	}
}

// The claim of the tests below: after ≥ 5× before.
func fiveTimes(r *Result) []Claim {
	c := Claim{ID: "X"}
	b, a := r.Find("before"), r.Find("after")
	if b != nil && a != nil {
		c.Reproduced = Verdict(a.RPS >= 5*b.RPS)
	}
	return []Claim{c}
}

func judge(rs [][]Run) Claim {
	res := &Result{Runs: Combine(rs, false)}
	if len(rs) > 1 {
		res.Rounds = rs
	}
	return Judge(res, res.Rounds, fiveTimes)[0]
}

func TestJudgeStableBothWays(t *testing.T) {
	yes := judge(rounds([2]float64{100, 900}, [2]float64{120, 700}, [2]float64{110, 800}))
	if yes.Reproduced == nil || !*yes.Reproduced || yes.Unstable || len(yes.Rounds) != 3 || yes.Verdict() != "REPRODUCED" {
		t.Errorf("every round ≥ 5×: %+v %q", yes, yes.Verdict())
	}
	no := judge(rounds([2]float64{100, 200}, [2]float64{120, 300}, [2]float64{110, 250}))
	if no.Reproduced == nil || *no.Reproduced || no.Unstable || no.Verdict() != "NOT reproduced" {
		t.Errorf("no round ≥ 5×: %+v %q", no, no.Verdict())
	}
	one := judge(rounds([2]float64{100, 600}))
	if one.Unstable || one.Rounds != nil || one.Verdict() != "REPRODUCED" {
		t.Errorf("a single run: %+v", one)
	}
}

// Rounds on both sides of the tolerance: unstable, whatever the median
// says, never a plain REPRODUCED or NOT.
func TestJudgeUnstableWhenRoundsStraddleTheTolerance(t *testing.T) {
	for name, rs := range map[string][][]Run{
		"median reproduces":     rounds([2]float64{100, 600}, [2]float64{100, 400}, [2]float64{100, 550}),
		"median does not":       rounds([2]float64{100, 600}, [2]float64{100, 400}, [2]float64{100, 450}),
		"one round of two":      rounds([2]float64{100, 600}, [2]float64{100, 400}),
		"medians agree, rounds": rounds([2]float64{100, 520}, [2]float64{120, 500}, [2]float64{80, 510}),
	} {
		c := judge(rs)
		if !c.Unstable || !strings.HasPrefix(c.Verdict(), "UNSTABLE") {
			t.Errorf("%s: %+v %q, want unstable", name, c, c.Verdict())
		}
	}
}

// A round that could not measure the claim (a skipped row) does not make
// it unstable.
func TestJudgeIgnoresUnmeasuredRounds(t *testing.T) {
	rs := rounds([2]float64{100, 600}, [2]float64{100, 700})
	rs = append(rs, []Run{{Variant: "before", RPS: 100}})
	if c := judge(rs); c.Unstable || c.Verdict() != "REPRODUCED" {
		t.Errorf("%+v %q", c, c.Verdict())
	}
}

// The table says which stack ran, how rows combine rounds, each row's
// spread, and an unstable verdict as such.
func TestPrintShowsStackSpreadAndUnstable(t *testing.T) {
	rs := rounds([2]float64{100, 600}, [2]float64{100, 400}, [2]float64{100, 550})
	res := &Result{Step: 2, Slug: "x", Machine: Machine{Stack: "compose", CPUs: 2}, Params: map[string]any{"added_latency_ms": 0.2},
		Runs: Combine(rs, false), Rounds: rs}
	res.Claims = Judge(res, res.Rounds, fiveTimes)
	var b strings.Builder
	res.Print(&b)
	out := b.String()
	for _, want := range []string{"stack: compose (", "+ 0.20 ms per PostgreSQL/Redis round trip", "3 interleaved rounds: each row is its median round",
		"req/s spread", "400–600", "UNSTABLE: reproduced in 2 of 3 rounds"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}
