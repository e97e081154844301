package scenario

import (
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/result"
)

// Step 10's verdicts follow the counters, both ways.
func TestScaleOutClaims(t *testing.T) {
	env := Env{Params: params.Load()}
	run := func(name course.Variant, extra map[result.Key]float64) result.Run {
		return result.Run{Variant: name, Extra: extra}
	}
	res := func(rr4, hash4, staleTTL, stalePS, missed float64) *result.Result {
		return &result.Result{Runs: []result.Run{
			run("rr-1", map[result.Key]float64{result.CopiesPerItem: 1.1}),
			run("rr-4", map[result.Key]float64{result.CopiesPerItem: rr4}),
			run("hash-4", map[result.Key]float64{result.CopiesPerItem: hash4, result.ShareOfReplica(1): 0.46}),
			run("stale-ttl", map[result.Key]float64{result.Changes: 8, result.StaleMSMax: staleTTL}),
			run("stale-pubsub", map[result.Key]float64{result.Changes: 8, result.StaleMSMax: stalePS, result.StaleMissedMSMax: missed, result.BurstTTLMS: 300}),
		}}
	}
	verdicts := func(r *result.Result) []bool {
		var out []bool
		for _, c := range scaleOutClaims(r, env) {
			if c.Reproduced == nil {
				t.Fatalf("%s not judged: %s", c.ID, c.Measured)
			}
			out = append(out, *c.Reproduced)
		}
		return out
	}
	if v := verdicts(res(3.6, 1.2, 290, 2, 290)); !v[0] || !v[1] || !v[2] {
		t.Errorf("3.6 copies round-robin, 1.2 hashed, stale 290 → 2 ms: %v, want all reproduced", v)
	}
	if v := verdicts(res(1.5, 2.4, 290, 290, 290)); v[0] || v[1] || v[2] {
		t.Errorf("1.5 copies round-robin, 2.4 hashed, stale 290 → 290 ms (no exercise): %v, want none reproduced", v)
	}
	if v := verdicts(res(3.6, 1.2, 290, 2, 900)); v[2] {
		t.Error("a replica that missed the announcement and stayed stale 900 ms (TTL 300): S10c reproduced, want not")
	}
	if v := verdicts(res(3.6, 1.2, 40, 2, 40)); v[2] {
		t.Error("without invalidation nothing was stale beyond the bound: S10c reproduced, want not (the drill did not show the delay)")
	}
	if cs := scaleOutClaims(&result.Result{}, env); cs[0].Reproduced != nil || cs[2].Reproduced != nil {
		t.Error("claims judged with no runs, want not measured")
	}
}

// A judged claim whose rows had failed requests says so on its measured
// line: the verdict reads them, so the learner must see them.
func TestFailedRequestsAreOnTheMeasuredLine(t *testing.T) {
	c := result.Claim{ID: "S10c", Measured: "old ETag …", Reproduced: result.Verdict(false)}
	failedRequests(&c, &result.Run{Variant: course.StaleTTL}, &result.Run{Variant: course.StalePubSub, Errors: 2}, nil)
	if want := "; failed requests (a row with any is not reproduced): stale-pubsub 2"; !strings.HasSuffix(c.Measured, want) {
		t.Errorf("measured %q, want it to end %q", c.Measured, want)
	}
	quiet := result.Claim{Measured: "x", Reproduced: result.Verdict(true)}
	if failedRequests(&quiet, &result.Run{Variant: course.StaleTTL}); quiet.Measured != "x" {
		t.Errorf("no failed request, measured %q", quiet.Measured)
	}
}

// S10c is judged on the stale rows alone: a busy `single` row does not
// withhold it; a stale row with some failed changes withholds it, naming
// the row (a failed change measures nothing, and Redis timeouts on a
// loaded machine fail a right answer's changes); a row whose every change
// failed is not reproduced.
func TestS10cReadsOnlyItsStaleRows(t *testing.T) {
	env := Env{Params: params.Load()}
	rows := func(failed int64) *result.Result {
		return &result.Result{Runs: []result.Run{
			{Variant: course.Single, OtherCPU: 0.73},
			{Variant: course.StaleTTL, Requests: 8, Extra: map[result.Key]float64{result.Changes: 8, result.StaleMSMax: 290}},
			{Variant: course.StalePubSub, Requests: 8, Errors: failed, FirstError: "announce change of item 7: i/o timeout",
				Extra: map[result.Key]float64{result.Changes: 8, result.StaleMSMax: 2, result.StaleMissedMSMax: 290, result.BurstTTLMS: 300}},
		}}
	}
	judged := func(failed int64) result.Claim {
		return result.Judge(rows(failed), nil, func(r *result.Result) []result.Claim { return scaleOutClaims(r, env) })[2]
	}
	if c := judged(0); c.Reproduced == nil || !*c.Reproduced {
		t.Errorf("stale rows fine, single 73%% busy: S10c %v (busy %q, unjudged %q), want reproduced", c.Reproduced, c.Busy, c.Unjudged)
	}
	c := judged(1)
	if c.Reproduced != nil || c.IfJudged == nil || !*c.IfJudged || !strings.Contains(c.Unjudged, "stale-pubsub 1 of 8 (announce change of item 7: i/o timeout)") {
		t.Errorf("1 of 8 changes failed: S10c %v, as measured %v, unjudged %q; want withheld naming the row, as measured reproduced", c.Reproduced, c.IfJudged, c.Unjudged)
	}
	if c := judged(8); c.Reproduced == nil || *c.Reproduced {
		t.Errorf("every change failed: S10c %v (unjudged %q), want not reproduced", c.Reproduced, c.Unjudged)
	}
}
