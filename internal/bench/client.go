package bench

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"
)

// The load tool has a CPU budget too. A closed loop measures whichever
// side runs out first: when the client's CPUs are saturated while the
// server's is not, the row's req/s is the tool's ceiling, not the server's
// (k6 spends ~170 µs of client CPU per request, ten times our driver: it
// cannot load a Redis-bound row on one core). Each row therefore records
// the client's CPU per request, and is flagged client-bound by this rule.
const (
	// ClientBusyLimit: the client used at least this share of its CPUs…
	ClientBusyLimit = 0.9
	// ServerIdleLimit: …while the server used less than this share of its own.
	ServerIdleLimit = 0.8
)

// selfCPU is the CPU time (user + system) this process has used: the Go
// driver runs in it, so its delta over the window is the driver's cost
// (plus the little the workshop does beside it, e.g. the live-stats worker).
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// ClientBusy is the share of the client's CPUs the load tool used over the
// run (1 = all of them), 0 when not measured.
func (r *Run) ClientBusy(plan CPUPlan) float64 {
	cpus := len(plan.Driver)
	if !plan.Pinned || cpus == 0 {
		cpus = runtime.NumCPU()
	}
	return r.RPS * r.ClientCPUus / 1e6 / float64(cpus)
}

// ServerBusy is the share of the server's CPUs it used over the run.
func (r *Run) ServerBusy(plan CPUPlan) float64 {
	return r.RPS * r.PerRequest.ServerCPUus / 1e6 / float64(plan.Procs())
}

// flagClientBound applies the rule: client ≥ 90 % of its CPUs while the
// server < 80 % of its own.
func flagClientBound(r *Run, plan CPUPlan) {
	if r.ClientCPUus == 0 || r.PerRequest.ServerCPUus == 0 {
		return
	}
	r.ClientBound = r.ClientBusy(plan) >= ClientBusyLimit && r.ServerBusy(plan) < ServerIdleLimit
}

// ClientBoundRule states the rule for tables and READMEs.
func ClientBoundRule() string {
	return fmt.Sprintf("client-bound = the load tool used ≥ %.0f%% of its CPUs while the server used < %.0f%% of its own: that req/s is the tool's limit, not the server's",
		100*ClientBusyLimit, 100*ServerIdleLimit)
}

// NoteClientBound marks every claim judged on rates while some row was
// client-bound: such a verdict compares the load tool's limit, and says so.
// Count-based claims (DB queries, Redis bytes, 304 share, writes per
// flush, CPU or memory per request) hold whatever the tool's speed and are
// left alone.
func NoteClientBound(res *Result) {
	var bound []string
	for _, x := range res.Runs {
		if x.ClientBound {
			bound = append(bound, x.Variant)
		}
	}
	if len(bound) == 0 {
		return
	}
	for i := range res.Claims {
		if !countBased(res.Claims[i]) {
			res.Claims[i].ClientBound = bound
		}
	}
}

// countBased reads a claim's tolerance: a count per request (or per key
// expiry, or a peak RSS) and no rate or ceiling in it.
func countBased(c Claim) bool {
	t := strings.ToLower(c.Tolerance)
	for _, rate := range []string{"req/s", "ceiling", "rate", "persist"} {
		if strings.Contains(t, rate) {
			return false
		}
	}
	for _, count := range []string{"/request", "per request", "per key expiry", "µs/req", "rss"} {
		if strings.Contains(t, count) {
			return true
		}
	}
	return false
}

// clientCells are the table's client columns: CPU per request and the
// share of the client's CPUs used, flagged when the row was client-bound.
func clientCells(x Run, plan CPUPlan) string {
	if x.ClientCPUus == 0 {
		return "-\t-"
	}
	busy := fmt.Sprintf("%.0f%%", 100*x.ClientBusy(plan))
	if x.ClientBound {
		busy += " CLIENT-BOUND"
	}
	return fmt.Sprintf("%.0f\t%s", x.ClientCPUus, busy)
}

// SharedCPUShare is the client's share of a CPU it shares with the
// databases above which a row that used them gets a note.
const SharedCPUShare = 0.2

// SharedCPUNote says which rows that used a database, with the server
// not saturated, had a load tool taking a real share of the CPU the
// databases run on (on 2 CPUs the plan puts them together). Such a row is
// neither client- nor server-bound by the rule above, yet its req/s is
// lower than with a lighter tool: every millisecond the tool spends there,
// PostgreSQL or Redis does not get. Measured here: step 1's direct-db
// served 0.64× the Go driver's req/s under k6 (28 % of CPU 0), while step
// 8's server-bound rows agreed within 4 %. Empty when no row qualifies.
func SharedCPUNote(runs []Run, plan CPUPlan) string {
	shared := !plan.Pinned // unpinned: everything shares every CPU
	for _, c := range plan.Driver {
		if slices.Contains(plan.Services, c) {
			shared = true
		}
	}
	if !shared {
		return ""
	}
	var rows []string
	for _, x := range runs {
		usedDB := x.PerRequest.DBQueries > 0 || x.PerRequest.RedisBytes > 0
		if usedDB && !x.ClientBound && x.ServerBusy(plan) < ServerIdleLimit && x.ClientBusy(plan) >= SharedCPUShare {
			rows = append(rows, fmt.Sprintf("%s (%.0f%%)", x.Variant, 100*x.ClientBusy(plan)))
		}
	}
	if len(rows) == 0 {
		return ""
	}
	return fmt.Sprintf("the load tool shares its CPUs with the databases and used a real share of them in %s: a database-bound req/s there is lower than a lighter tool would measure",
		strings.Join(rows, ", "))
}
