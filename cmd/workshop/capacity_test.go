package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/harness/config"
	"github.com/peakload/workshop/internal/harness/load"
	"github.com/peakload/workshop/internal/harness/result"
)

// ARRIVAL and RATE go together, on the Go driver only; a mistake is named.
func TestArrival(t *testing.T) {
	p := params.Load()
	for _, c := range []struct {
		arrival, rate, tool, wantErr string
		wantRate                     float64
	}{
		{"", "", "", "", 0},
		{"rate", "20000", "", "", 20000},
		{"rate", "20000", "go", "", 20000},
		{"rate", "", "", "RATE=", 0},
		{"rate", "-5", "", "RATE=", 0},
		{"", "20000", "", "ARRIVAL=rate", 0},
		{"poisson", "20000", "", "want rate", 0},
		{"rate", "20000", "wrk", "closed loop", 0},
		{"rate", "20000", "k6", "constant-arrival-rate", 0},
	} {
		t.Setenv("ARRIVAL", c.arrival)
		t.Setenv("RATE", c.rate)
		var o load.Options
		tool := c.tool
		cfg, err := config.FromEnv() // ARRIVAL and RATE on their own
		if err == nil {
			tool, err = arrival(cfg, &o, p, c.tool) // with the tool
		}
		switch {
		case c.wantErr == "" && err != nil:
			t.Errorf("ARRIVAL=%q RATE=%q TOOL=%q: %v", c.arrival, c.rate, c.tool, err)
		case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
			t.Errorf("ARRIVAL=%q RATE=%q TOOL=%q: error %v, want one naming %q", c.arrival, c.rate, c.tool, err, c.wantErr)
		case err == nil && o.Rate != c.wantRate:
			t.Errorf("ARRIVAL=%q RATE=%q: rate %.0f, want %.0f", c.arrival, c.rate, o.Rate, c.wantRate)
		case err == nil && o.Rate > 0 && tool != "go":
			t.Errorf("an open loop runs on the Go driver, got TOOL %q", tool)
		}
	}
}

// The capacity table gives each search's figure beside the closed loop's,
// and the probes table every probe with why it failed.
func TestOpenLoopTables(t *testing.T) {
	probe := func(rate, achieved, p99 float64, ok bool, why string) result.Probe {
		return result.Probe{Rate: rate, OK: ok, Why: why, Run: result.Run{Latency: result.Latency{P99: p99},
			Arrival: &result.Arrival{Scheduled: 100, IntendedRPS: rate, AchievedRPS: achieved}}}
	}
	res := &result.Result{Runs: []result.Run{{Variant: "open", Arrival: &result.Arrival{Scheduled: 100, Missed: 5, IntendedRPS: 1000, AchievedRPS: 990}}},
		Capacity: []result.Capacity{{Variant: "empty-get", P99BoundMs: 25, ClosedRPS: 40000, RPS: 36000, Above: 38000, Probes: []result.Probe{
			probe(40000, 38000, 80, false, "p99 80.0 ms > 25 ms"), probe(28000, 28000, 3, true, "ok"), probe(36000, 36000, 9, true, "ok"), probe(38000, 37000, 40, false, "p99 40.0 ms > 25 ms")}}}}
	ts := openLoopTables(res)
	if len(ts) != 3 {
		t.Fatalf("%d tables, want the open-loop runs, the capacities and the probes", len(ts))
	}
	if row := ts[0].Rows[0]; row[3] != "5 (5.0%)" {
		t.Errorf("open-loop row %q: want 5 missed, 5.0%%", row)
	}
	if row := ts[1].Rows[0]; row[3] != "36000" || row[4] != "0.90" || row[5] != "9.00" || row[6] != "38000" || row[7] != "4" {
		t.Errorf("capacity row %q", row)
	}
	if len(ts[2].Rows) != 4 || ts[2].Rows[0][6] != "no" || ts[2].Rows[0][7] != "p99 80.0 ms > 25 ms" {
		t.Errorf("probes %q", ts[2].Rows)
	}
}

// TestOpenLoopTablesKeepTheirStoredText: built again from the reference
// runs that searched a capacity (steps 0 and 5), the open loop's tables are
// the stored ones byte for byte: their words come from the catalogue
// (English.T) and are said in the reader's language only when printed.
func TestOpenLoopTablesKeepTheirStoredText(t *testing.T) {
	for _, n := range []int{0, 5} {
		raw, err := os.ReadFile(filepath.Join("..", "..", "results", "reference", fmt.Sprintf("step-%d.json", n)))
		if err != nil {
			t.Fatal(err)
		}
		var r result.Result
		if err := json.Unmarshal(raw, &r); err != nil {
			t.Fatal(err)
		}
		built := openLoopTables(&r)
		if len(built) == 0 || len(built) > len(r.Tables) {
			t.Fatalf("step %d: %d open-loop tables built, %d stored in all", n, len(built), len(r.Tables))
		}
		stored := r.Tables[len(r.Tables)-len(built):]
		for i := range built {
			if !reflect.DeepEqual(built[i], stored[i]) {
				t.Errorf("step %d: built\n  %q\nstored\n  %q", n, built[i], stored[i])
			}
		}
	}
}

// A capacity below the lowest rate probed has no ratio to the closed loop.
func TestCapacityRatioOfNoRate(t *testing.T) {
	if got := capacityRatio(result.Capacity{RPS: 0, ClosedRPS: 352}); got != "-" {
		t.Errorf("no rate served: ratio %q, want -", got)
	}
	if got := capacityRatio(result.Capacity{RPS: 176, ClosedRPS: 352}); got != "0.50" {
		t.Errorf("ratio %q, want 0.50", got)
	}
}
