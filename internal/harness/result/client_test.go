package result

import (
	"encoding/json"
	"github.com/peakload/workshop/internal/given/messages"
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/harness/course"
)

// The rows of step 1 measured here under k6 (2 CPUs: driver and databases
// on CPU 0): direct-db is neither client- nor server-bound, yet k6 took
// 28 % of the CPU PostgreSQL needed and the row served 0.64× the Go
// driver's req/s. Only such rows get the note.
func TestSharedCPUNoteNamesDatabaseRowsWithAHeavyTool(t *testing.T) {
	two := CPUPlan{Server: []int{1}, Services: []int{0}, Driver: []int{0}, Pinned: true}
	four := CPUPlan{Server: []int{3}, Services: []int{2}, Driver: []int{0, 1}, Pinned: true}
	directDB := func(tool string, clientUS float64) Run {
		return Run{Variant: course.Variant("direct-db-" + tool), RPS: 1544, ClientCPUus: clientUS,
			PerRequest: PerRequest{DBQueries: 1, ServerCPUus: 113}}
	}
	empty := Run{Variant: "empty-get", RPS: 9150, ClientCPUus: 108, ClientBound: true, PerRequest: PerRequest{ServerCPUus: 39}}
	burst := Run{Variant: "burst", RPS: 59364, ClientCPUus: 14, PerRequest: PerRequest{RedisBytes: 10, ServerCPUus: 16}}
	// The same tool and server figures, but no database in the request: not named.
	noDB := directDB("k6", 181)
	noDB.Variant, noDB.PerRequest.DBQueries = "no-db-k6", 0
	runs := []Run{empty, directDB("k6", 181), directDB("go", 24), burst, noDB}

	note := SharedCPUNote(runs, two)
	if !strings.Contains(note, "direct-db-k6 (28%)") {
		t.Fatalf("note %q: want direct-db under k6 named with its (28%%)", note)
	}
	for _, not := range []string{"direct-db-go", "empty-get", "burst", "no-db-k6"} {
		if strings.Contains(note, not) {
			t.Errorf("note %q names %s: a light tool, a client-bound row, a server-bound row or a row without a database", note, not)
		}
	}
	if got := SharedCPUNote(runs, four); got != "" {
		t.Errorf("driver on CPUs of its own: note %q, want none", got)
	}
}

// Issue 19's run of step 2 under k6 (2 CPUs, k6 and the databases on CPU
// 0): empty-get client-bound, cache-aside neither client- nor server-bound
// with k6 taking 65 % of CPU 0, and A2 read NOT reproduced (4.2×, where
// the Go driver measures 15×). The rule makes A2 not judged, names the row
// and why, keeps what it would have read; a count-based claim, a claim on
// the tools themselves and a claim on rows the tool did not limit keep
// their verdicts; the JSON and the table say so.
func TestRateClaimIsNotJudgedWhereTheToolLimited(t *testing.T) {
	two := CPUPlan{Server: []int{1}, Services: []int{0}, Driver: []int{0}, Pinned: true}
	no, yes := false, true
	res := &Result{Machine: Machine{CPUPlan: two, ServerGOMAXPROCS: 1},
		Runs: []Run{
			{Variant: "empty-get", RPS: 9150, ClientCPUus: 108, ClientBound: true, PerRequest: PerRequest{ServerCPUus: 39}},
			{Variant: "direct-db", RPS: 1544, ClientCPUus: 181, PerRequest: PerRequest{DBQueries: 1, ServerCPUus: 113}},                                                 // k6 28 %: noted, judged
			{Variant: "cache-aside", RPS: 3000, ClientCPUus: 217, PerRequest: PerRequest{RedisBytes: 900, ServerCPUus: 50}, Extra: map[Key]float64{RedisGetsPerReq: 1}}, // k6 65 %
			// step 5's burst under the Go driver on a loaded machine: 54 % of CPU 0, but 0.017 GETs per request: it does not wait on a database
			{Variant: "burst", RPS: 17820, ClientCPUus: 30, PerRequest: PerRequest{RedisBytes: 25, ServerCPUus: 36}, Extra: map[Key]float64{RedisGetsPerReq: 0.017}},
		},
		Claims: []Claim{
			{ID: "A2", Tolerance: "cache-aside ≥ 5× direct-db req/s, same run", Rows: []course.Variant{"direct-db", "cache-aside"}, Reproduced: &no},
			{ID: "A5", Tolerance: "Redis bytes/request of singleflight ÷ burst ≥ 5", Reproduced: &no},
			{ID: "A0", Tolerance: "Go driver ≥ 0.9× wrk's req/s on GET /empty", JudgesTools: true, Reproduced: &no},
			{ID: "DB", Tolerance: "direct-db ≤ 2000 req/s", Rows: []course.Variant{"direct-db"}, Reproduced: &yes},
			{ID: "A5-ceiling", Tolerance: "burst ≥ 0.8× the GET /empty ceiling", Rows: []course.Variant{"burst"}, Reproduced: &no},
		}}
	if got := ToolLimit(res.Runs[1], two); got != "" {
		t.Errorf("direct-db, k6 at 28 %% of CPU 0: limited by %q, want only noted", got)
	}
	NoteToolLimits(res)
	a2 := res.Claims[0]
	if a2.Reproduced != nil || a2.IfJudged == nil || *a2.IfJudged || !strings.Contains(a2.NotJudged, "cache-aside (the tool took 65% of the CPUs it shares with the databases)") {
		t.Fatalf("A2: reproduced %v, if judged %v, not judged %q: want no verdict, the NOT reproduced it read, and cache-aside named with its 65%%", a2.Reproduced, a2.IfJudged, a2.NotJudged)
	}
	if v := a2.Verdict(); !strings.HasPrefix(v, "not judged: the load tool limited cache-aside") || !strings.Contains(v, "as measured: NOT reproduced") {
		t.Errorf("A2's verdict reads %q", v)
	}
	for _, c := range res.Claims[1:] {
		if c.NotJudged != "" || c.Reproduced == nil {
			t.Errorf("%s: not judged (%q): a count-based claim, a claim on the tools and claims on unlimited rows keep their verdicts", c.ID, c.NotJudged)
		}
	}
	b, _ := json.Marshal(a2)
	if !strings.Contains(string(b), `"reproduced":null`) || !strings.Contains(string(b), `"not_judged":"cache-aside`) || !strings.Contains(string(b), `"if_judged":false`) {
		t.Errorf("A2 in the results JSON: %s", b)
	}
	var out strings.Builder
	res.Print(&out)
	if !strings.Contains(out.String(), ToolLimitRule()) {
		t.Errorf("the table does not state the rule:\n%s", out.String())
	}
}

// A claim withheld for a reason of its own says that reason, in the
// reader's language, and never blames the load tool.
func TestUnjudgedSaysItsOwnReasonInEachLanguage(t *testing.T) {
	var c Claim
	c.Unjudge("the rows of the source's stack (%s) did not run", "các hàng của stack gốc (%s) không chạy", "express-bulk")
	if !c.Withheld() || c.Reproduced != nil {
		t.Fatalf("Unjudge left withheld %v, reproduced %v", c.Withheld(), c.Reproduced)
	}
	for l, want := range map[messages.Lang]string{
		messages.English:    "not judged: the rows of the source's stack (express-bulk) did not run",
		messages.Vietnamese: "không xét: các hàng của stack gốc (express-bulk) không chạy",
	} {
		if got := c.VerdictIn(l); got != want {
			t.Errorf("VerdictIn(%s) = %q, want %q", l, got, want)
		}
	}
}
