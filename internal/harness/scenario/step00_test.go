package scenario

import (
	"testing"

	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/result"
)

// S0 is judged from the CPU per request of the timeouts row and the full
// shell, for each tool that ran, both ways; the layer table follows.
func TestShellClaim(t *testing.T) {
	run := func(name course.Variant, rps, us float64) result.Run {
		return result.Run{Variant: name, RPS: rps, Requests: 1000, PerRequest: result.PerRequest{ServerCPUus: us}}
	}
	for _, c := range []struct {
		name       string
		fullGo     float64
		fullWrk    float64
		reproduced bool
	}{
		{"both within 5 %", 20.8, 21.0, true},
		{"wrk's shell 7.5 % dearer", 20.8, 21.5, false},
		{"the Go driver's shell 10 % dearer", 22.0, 20.0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := &result.Result{Runs: []result.Run{
				run("shell-bare", 52000, 19), run("shell-timeouts", 50000, 20), run("shell-guards", 49900, 20.1), run("empty-get", 49000, c.fullGo),
				run("shell-bare-wrk", 52000, 19), run("shell-timeouts-wrk", 50000, 20), run("shell-guards-wrk", 49900, 20.1), run("empty-get-wrk", 49000, c.fullWrk),
			}}
			got := shellClaim(r)
			if got.Reproduced == nil || *got.Reproduced != c.reproduced {
				t.Errorf("S0 %v (%s), want reproduced=%v", got.Reproduced, got.Measured, c.reproduced)
			}
			tables := shellTables(r)
			if len(tables) != 1 || len(tables[0].Rows) != 8 {
				t.Fatalf("layer table: %+v, want 8 rows (4 layers × 2 tools)", tables)
			}
			if row := tables[0].Rows[1]; row[1] != "timeouts" || row[6] != "+1.0" || row[7] != "1.00" {
				t.Errorf("timeouts row %q: want +1.0 µs over bare and capacity 1.00", row)
			}
		})
	}
	if c := shellClaim(&result.Result{Runs: []result.Run{run("empty-get", 49000, 20)}}); c.Reproduced != nil {
		t.Errorf("S0 without a timeouts row: %v, want not measured", *c.Reproduced)
	}
}
