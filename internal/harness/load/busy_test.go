package load

import (
	"math"
	"testing"
	"time"

	"github.com/peakload/workshop/internal/harness/result"
)

// What the window owes to us: the server's CPU, this process's, a load
// tool's own process (wrk, k6) and the databases'. The rest is others'.
func TestOtherCPUSubtractsOurs(t *testing.T) {
	t0 := time.Now()
	win := [2]cpuEdge{
		{busy: map[int]float64{0: 100, 1: 200}, services: 10, at: t0},
		{busy: map[int]float64{0: 102, 1: 202}, services: 10.2, at: t0.Add(2 * time.Second)},
	}
	plan := result.PlanFor(2) // server [1]; driver and databases [0]
	goDriver := result.Run{Tool: "go", Requests: 1000, ClientCPUus: 1500}
	// CPU 1: 2 s busy, the server 1.5 s: 25 %. CPU 0: 2 s busy, the driver 1.5 s and the databases 0.2 s: 15 %.
	if got := otherCPU(win, plan, goDriver, 1.5, 1.5); math.Abs(got-0.25) > 1e-9 {
		t.Errorf("Go driver: %.3f, want 0.25", got)
	}
	wrk := result.Run{Tool: "wrk", Requests: 1000, ClientCPUus: 1200} // wrk 1.2 s beside this process's 0.3 s
	if got := otherCPU(win, plan, wrk, 0.3, 2); math.Abs(got-0.15) > 1e-9 {
		t.Errorf("wrk: %.3f, want 0.15 (CPU 0: 2 − 0.3 − 1.2 − 0.2)", got)
	}
	if got := otherCPU(win, plan, goDriver, 1.5, 0); got != 0 {
		t.Errorf("a server without its CPU counter: %.3f, want 0 (not measured)", got)
	}
	if got := otherCPU([2]cpuEdge{}, plan, goDriver, 1.5, 1.5); got != 0 {
		t.Errorf("no edges read (no ServicesCPU): %.3f, want 0", got)
	}
}
