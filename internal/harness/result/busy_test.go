package result

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/course"
)

// What other processes took is read per group of CPUs our roles share:
// a neighbour beside the server shows whole, not diluted over the machine.
func TestOtherShareByGroup(t *testing.T) {
	two := PlanFor(2) // server [1]; driver and databases [0]
	for _, c := range []struct {
		name string
		plan CPUPlan
		w    WindowCPU
		want float64
	}{
		{"quiet", two, WindowCPU{Busy: map[int]float64{0: 0.95, 1: 1}, Seconds: 1, Server: 0.98, Driver: 0.85, Services: 0.05}, 0.05},
		{"a busy loop beside the server", two, WindowCPU{Busy: map[int]float64{0: 0.9, 1: 1}, Seconds: 1, Server: 0.5, Driver: 0.85, Services: 0.05}, 0.5},
		{"a busy loop beside the driver", two, WindowCPU{Busy: map[int]float64{0: 2, 1: 2}, Seconds: 2, Server: 1.9, Driver: 0.9, Services: 0.1}, 0.5},
		{"unpinned: one group", CPUPlan{}, WindowCPU{Busy: map[int]float64{0: 1, 1: 1}, Seconds: 1, Server: 0.5, Driver: 0.9}, 0.3},
		{"step 8 on 2 CPUs: the server spans the driver's", wideFor(2), WindowCPU{Busy: map[int]float64{0: 1, 1: 1}, Seconds: 1, Server: 1.5, Driver: 0.1}, 0.2},
		{"four CPUs: the databases apart", PlanFor(4), WindowCPU{Busy: map[int]float64{0: 1, 1: 1, 2: 0.6, 3: 1}, Seconds: 1, Server: 1, Driver: 1.8, Services: 0.2}, 0.4},
		{"ours read above the CPUs' ticks", two, WindowCPU{Busy: map[int]float64{0: 0.5, 1: 0.5}, Seconds: 1, Server: 0.6, Driver: 0.6}, 0},
		{"not measured", two, WindowCPU{Seconds: 1}, 0},
	} {
		if got := c.plan.OtherShare(c.w); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s: %.3f, want %.3f", c.name, got, c.want)
		}
	}
}

// The claims of the tests below: one on rates over two rows, one on a
// count, one on rates over a row that was never busy.
func busyClaims(r *Result) []Claim {
	b, a := r.Find("before"), r.Find("after")
	if b == nil || a == nil {
		return nil
	}
	return []Claim{
		{ID: "rate", Tolerance: "after ≥ 5× before req/s", Rows: []course.Variant{"before", "after"}, Reproduced: Verdict(a.RPS >= 5*b.RPS)},
		{ID: "count", Tolerance: "DB queries/request ≤ 0.1", Reproduced: Verdict(true)},
		{ID: "other", Tolerance: "ceiling ≥ 1000 req/s", Rows: []course.Variant{"ceiling"}, Reproduced: Verdict(true)},
	}
}

func busyRound(before, after, other float64) []Run {
	return []Run{{Variant: "before", RPS: before, OtherCPU: other}, {Variant: "after", RPS: after}, {Variant: "ceiling", RPS: 2000}}
}

func judgeRounds(rs ...[]Run) []Claim {
	res := &Result{Runs: Combine(rs, false)}
	if len(rs) > 1 {
		res.Rounds = rs
	}
	return Judge(res, res.Rounds, busyClaims)
}

// One round: a rate claim on a busy row is not judged (what it read is
// kept, the rows and shares named, in both languages); on a quiet one, or
// judged on counts, it keeps its verdict.
func TestBusyRowIsNotJudged(t *testing.T) {
	quiet := judgeRounds(busyRound(100, 400, 0.05))
	if quiet[0].Withheld() || quiet[0].Reproduced == nil || *quiet[0].Reproduced {
		t.Fatalf("quiet: %+v, want NOT reproduced, judged", quiet[0])
	}
	busy := judgeRounds(busyRound(100, 600, 0.4)) // the neighbours slowed "before": 6× reads as reproduced
	c := busy[0]
	if c.Reproduced != nil || c.IfJudged == nil || !*c.IfJudged || c.Busy != "before 40%" {
		t.Fatalf("busy: reproduced %v, if judged %v, busy %q: want no verdict, what it read kept, before named with 40%%", c.Reproduced, c.IfJudged, c.Busy)
	}
	if v := c.Verdict(); !strings.HasPrefix(v, "not judged (the machine was busy") || !strings.Contains(v, "before 40%") || !strings.Contains(v, "as measured: REPRODUCED") {
		t.Errorf("verdict: %q", v)
	}
	if v := c.VerdictIn(messages.Vietnamese); !strings.Contains(v, "máy đang bận") || !strings.Contains(v, "before 40%") {
		t.Errorf("Vietnamese verdict: %q", v)
	}
	for _, other := range busy[1:] {
		if other.Withheld() || other.Reproduced == nil {
			t.Errorf("%s: %q, want its verdict: a count, or rows that were quiet", other.ID, other.Verdict())
		}
	}
	b, _ := json.Marshal(Result{Runs: []Run{{Variant: "before", OtherCPU: 0.4}}, Claims: busy})
	if !strings.Contains(string(b), `"other_cpu":0.4`) || !strings.Contains(string(b), `"busy_rows":"before 40%"`) {
		t.Errorf("results JSON: %s", b)
	}
	var out strings.Builder
	(&Result{Runs: Combine([][]Run{busyRound(100, 600, 0.4)}, false), Claims: busy}).Print(&out)
	for _, want := range []string{BusyRule(), say("rule.others", "before 40%", 100*BusyLimit)} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, out.String())
		}
	}
}

// With rounds, a busy round counts neither for nor against: the quiet
// rounds judge; quiet rounds that disagree are UNSTABLE; with no quiet
// round the claim is not judged. Never the busy round's verdict alone.
func TestBusyRoundDoesNotCount(t *testing.T) {
	// The quiet rounds read NOT reproduced (4×); the busy one, 6×.
	mixed := judgeRounds(busyRound(100, 400, 0), busyRound(100, 600, 0.5), busyRound(100, 420, 0.1))[0]
	if mixed.Withheld() || mixed.Unstable || mixed.Reproduced == nil || *mixed.Reproduced || mixed.BusyRounds != 1 {
		t.Fatalf("mixed: %q (busy rounds %d), want the quiet rounds' NOT reproduced", mixed.Verdict(), mixed.BusyRounds)
	}
	if v := mixed.Verdict(); !strings.Contains(v, "1 of 3 rounds measured busy") {
		t.Errorf("verdict %q does not say a round was left out", v)
	}
	// Here the median row is the busy round's: its 6× must not decide.
	median := judgeRounds(busyRound(100, 400, 0), busyRound(100, 600, 0.5), busyRound(100, 800, 0.6))[0]
	if median.Withheld() || median.Reproduced == nil || *median.Reproduced {
		t.Errorf("median from a busy round: %q, want the one quiet round's NOT reproduced", median.Verdict())
	}
	split := judgeRounds(busyRound(100, 400, 0), busyRound(100, 600, 0.5), busyRound(100, 600, 0))[0]
	if !split.Unstable || !strings.HasPrefix(split.Verdict(), "UNSTABLE: reproduced in 1 of 2 rounds") {
		t.Errorf("quiet rounds that disagree: %q, want UNSTABLE over the 2 quiet rounds", split.Verdict())
	}
	all := judgeRounds(busyRound(100, 600, 0.5), busyRound(100, 600, 0.3))[0]
	if all.Reproduced != nil || all.Busy == "" || all.IfJudged == nil || !*all.IfJudged {
		t.Errorf("every round busy: %q, want not judged", all.Verdict())
	}
	if count := judgeRounds(busyRound(100, 600, 0.5), busyRound(100, 600, 0.5))[1]; count.Withheld() || count.BusyRounds != 0 {
		t.Errorf("a count-based claim: %q, want its verdict", count.Verdict())
	}
}

// Issue 32: step 5's A5-ceiling read REPRODUCED "burst 1.22× GET /empty"
// while the ceiling row kept its server 56 % busy: that row measured the
// tool, not a ceiling, and the claim is not judged.
func TestUnsaturatedCeilingIsNotJudged(t *testing.T) {
	two := PlanFor(2)
	yes := true
	res := &Result{Machine: Machine{CPUPlan: two, ServerGOMAXPROCS: 1},
		Runs: []Run{
			{Variant: "empty-get", RPS: 14_000, PerRequest: PerRequest{ServerCPUus: 40}}, // 56 %
			{Variant: "burst", RPS: 17_080, PerRequest: PerRequest{ServerCPUus: 55}},
		},
		Claims: []Claim{{ID: "A5-ceiling", Tolerance: "burst ≥ 0.8× the GET /empty ceiling of equal body size", Rows: []course.Variant{"burst", "empty-get"},
			Ceiling: []course.Variant{"empty-get"}, Reproduced: &yes}}}
	NoteToolLimits(res)
	c := res.Claims[0]
	if c.Reproduced != nil || !strings.Contains(c.NotJudged, "empty-get (the server only 56% busy: not a ceiling)") {
		t.Fatalf("A5-ceiling: %q, want not judged, empty-get named with its 56%%", c.Verdict())
	}
	res.Runs[0].RPS, res.Claims[0] = 22_000, Claim{ID: "A5-ceiling", Tolerance: "burst ≥ 0.8×", Ceiling: []course.Variant{"empty-get"}, Reproduced: &yes} // 88 %
	NoteToolLimits(res)
	if c := res.Claims[0]; c.Withheld() || c.Reproduced == nil {
		t.Errorf("a saturated ceiling: %q, want judged", c.Verdict())
	}
}

// The READMEs state the busy rule with the share the code uses.
func TestReadmesStateTheBusyRule(t *testing.T) {
	want := fmt.Sprintf("≥ %.0f %%", 100*BusyLimit)
	for _, f := range []string{"../../../README.md", "../../../README.vi.md", "../../../k6/README.md"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), want) {
			t.Errorf("%s does not state the busy rule's %q", f, want)
		}
	}
}

// CPU per request moves with the neighbours (caches, switches): withheld
// like a rate. A rate bound cleared many times over (LooseRate) is not.
func TestBusyWithholdsCPUPerRequestNotLooseBounds(t *testing.T) {
	yes := true
	runs := []Run{{Variant: "empty-get", OtherCPU: 0.9}, {Variant: "direct-db", OtherCPU: 0.9}}
	s0 := Claim{ID: "S0", Tolerance: "server µs/req on GET /empty: bare ÷ full ≥ 0.95", Reproduced: &yes}
	a1 := Claim{ID: "A1", Tolerance: "DB queries/request in [0.95, 1.05] and direct-db ≤ 0.5× the GET /empty ceiling", Rows: []course.Variant{"direct-db", "empty-get"}, LooseRate: true, Reproduced: &yes}
	noteBusy(&s0, runs)
	noteBusy(&a1, runs)
	if s0.Busy == "" || s0.Reproduced != nil {
		t.Errorf("S0 on CPU per request: %q, want not judged", s0.Verdict())
	}
	if a1.Withheld() || a1.Reproduced == nil {
		t.Errorf("A1, a loose rate bound: %q, want its verdict", a1.Verdict())
	}
}

// A claim on rows driven with no server (step 6's raw inserts, no share of
// their own) names them, and the busy rows measured beside them stand in;
// a claim on measured rows names only its own.
func TestBusyRowsNameTheClaimsOwnRows(t *testing.T) {
	runs := []Run{{Variant: "empty-post", OtherCPU: 0.8}, {Variant: "raw-seq", Tool: "direct"},
		{Variant: "raw-100", Tool: "direct"}, {Variant: "sync", OtherCPU: 0.1}}
	for _, c := range []struct {
		rows []course.Variant
		want string
	}{
		{[]course.Variant{"raw-seq", "raw-100"}, "raw-seq –, raw-100 –; empty-post 80%"},
		{[]course.Variant{"sync"}, ""},
		{[]course.Variant{"sync", "empty-post"}, "empty-post 80%"},
		{nil, "empty-post 80%"},
	} {
		if got := busyRows(runs, c.rows); got != c.want {
			t.Errorf("rows %v: %q, want %q", c.rows, got, c.want)
		}
	}
	runs[0].OtherCPU = 0.1
	if got := busyRows(runs, []course.Variant{"raw-seq", "raw-100"}); got != "" {
		t.Errorf("a quiet machine: %q, want none", got)
	}
}
