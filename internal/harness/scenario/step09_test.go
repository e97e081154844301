package scenario

import (
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/result"
)

// Step 9's frameworks table gives × echo only where both rates are the
// servers': a cheap endpoint whose server was well under saturation, or a
// row measured on a busy machine, gets "–" and a note saying why, so a
// learner does not read "gin is half as fast as echo" off the load tool
// or the neighbours. The item read, DB-bound by design, keeps its ratio.
func TestFrameworksTableRatiosOnlyWhereJudged(t *testing.T) {
	row := func(fw, ep string, rps, us, others float64) result.Run {
		x := result.Run{Variant: course.FrameworkRow(fw, ep), RPS: rps, OtherCPU: others}
		x.PerRequest.ServerCPUus = us
		return x
	}
	cell := func(r *result.Result, fw, ep string) (string, []string) {
		ft := frameworkTables(r)[0]
		for _, rw := range ft.Rows {
			if rw[0] == ep && rw[1] == fw {
				return rw[len(rw)-1], ft.Notes
			}
		}
		t.Fatalf("no %s %s row in %v", ep, fw, ft.Rows)
		return "", nil
	}
	quiet := &result.Result{Runs: []result.Run{row("echo", "empty", 90000, 10.9, 0), row("nethttp", "empty", 94000, 10.5, 0),
		row("echo", "item", 2450, 92.5, 0), row("nethttp", "item", 2424, 91.1, 0)}}
	if got, notes := cell(quiet, "nethttp", "empty"); got != "1.04" || strings.Contains(strings.Join(notes, " "), "× echo \"–\"") {
		t.Errorf("empty nethttp, both servers ~98%% busy, a quiet machine: × echo %q (notes %q), want 1.04 and no \"–\" note", got, notes)
	}
	if got, _ := cell(quiet, "nethttp", "item"); got != "0.99" {
		t.Errorf("item nethttp, DB-bound (server 22%% busy): × echo %q, want 0.99: the database's pace is the ratio there", got)
	}
	// the learner's busy laptop: servers 3–37 % busy, others took 80 %
	busy := &result.Result{Runs: []result.Run{row("echo", "empty", 10800, 12, 0.8), row("nethttp", "empty", 3461, 12.5, 0.8),
		row("echo", "item", 1000, 90, 0.8), row("nethttp", "item", 990, 91, 0.8)}}
	for _, ep := range []string{"empty", "item"} {
		got, notes := cell(busy, "nethttp", ep)
		if got != "–" || !strings.Contains(strings.Join(notes, " "), "× echo \"–\"") {
			t.Errorf("%s nethttp on a busy machine: × echo %q (notes %q), want \"–\" with a note saying why", ep, got, notes)
		}
	}
	// a quiet machine, but the empty GET's server 13 % busy: the tool's pace
	idle := &result.Result{Runs: []result.Run{row("echo", "empty", 10800, 12, 0), row("nethttp", "empty", 5400, 12.5, 0)}}
	if got, _ := cell(idle, "nethttp", "empty"); got != "–" {
		t.Errorf("empty nethttp with its server 7%% busy: × echo %q, want \"–\" (not the server's ceiling)", got)
	}
}
