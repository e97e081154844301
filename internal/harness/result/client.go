package result

import (
	"fmt"
	"runtime"
	"slices"
	"strings"

	"github.com/peakload/workshop/internal/harness/course"
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

// FlagClientBound applies the rule: client ≥ 90 % of its CPUs while the
// server < 80 % of its own.
func FlagClientBound(r *Run, plan CPUPlan) {
	if r.ClientCPUus == 0 || r.PerRequest.ServerCPUus == 0 {
		return
	}
	r.ClientBound = r.ClientBusy(plan) >= ClientBusyLimit && r.ServerBusy(plan) < ServerIdleLimit
}

// ClientBoundRule states the rule for tables and READMEs.
func ClientBoundRule() string {
	return say("rule.client_bound", 100*ClientBusyLimit, 100*ServerIdleLimit)
}

// NoteToolLimits applies the rule (ToolLimit) to the claims: a claim
// judged on rates, one of whose rows the load tool limited, is not judged.
// Its Reproduced is nil, IfJudged keeps what the figures read, NotJudged
// says which rows and why: a rate at the tool's limit is the tool's, and
// in a ratio of two rows it can be wrong either way. Count-based claims
// (DB queries, Redis bytes, 304 share, writes per flush, CPU or memory per
// request) hold whatever the tool's speed and keep their verdicts; so does
// a claim that compares the load tools themselves (JudgesTools). Every
// claim judged on rates also names the client-bound rows, as before.
func NoteToolLimits(res *Result) {
	var bound []course.Variant
	for _, x := range res.Runs {
		if x.ClientBound {
			bound = append(bound, x.Variant)
		}
	}
	for i := range res.Claims {
		c := &res.Claims[i]
		if countBased(*c) {
			continue
		}
		c.ClientBound = bound
		if c.JudgesTools || c.Reproduced == nil {
			continue
		}
		why := limitedRows(res, c.Rows)
		if ceil := unsaturated(res, c.Ceiling); ceil != "" {
			why = strings.TrimPrefix(why+", "+ceil, ", ")
		}
		if why != "" {
			c.NotJudged, c.IfJudged, c.Reproduced, c.Unstable = why, c.Reproduced, nil, false
		}
	}
}

// unsaturated names the ceiling rows whose server was < ServerIdleLimit
// busy: a closed loop that leaves the server idle measured the load tool
// (or its neighbours), and a claim that reads it as the server's ceiling
// would compare against a figure too low (issue 32: step 5's burst read
// 1.22× a GET /empty that kept its server 56 % busy).
func unsaturated(res *Result, ceiling []course.Variant) string {
	var out []string
	for _, name := range ceiling {
		x := res.Find(name)
		if x == nil || x.PerRequest.ServerCPUus == 0 {
			continue
		}
		if busy := x.ServerBusy(res.Machine.CPUPlan); busy < ServerIdleLimit {
			out = append(out, fmt.Sprintf("%s (the server only %.0f%% busy: not a ceiling)", name, 100*busy))
		}
	}
	return strings.Join(out, ", ")
}

// limitedRows names the rows among names (all rows when empty) whose
// req/s the load tool set, with the reason, "" when none.
func limitedRows(res *Result, names []course.Variant) string {
	var out []string
	for _, x := range res.Runs {
		if len(names) > 0 && !slices.Contains(names, x.Variant) {
			continue
		}
		if why := ToolLimit(x, res.Machine.CPUPlan); why != "" {
			out = append(out, string(x.Variant)+" ("+why+")")
		}
	}
	return strings.Join(out, ", ")
}

// ToolLimit is the rule that decides whether a row's req/s is the
// server's: it says why the load tool set it instead, "" when it did not.
//   - client-bound: the tool used ≥ ClientBusyLimit of its CPUs while the
//     server used < ServerIdleLimit of its own;
//   - sharing: the tool runs on the databases' CPUs, the row waits on a
//     database (≥ DatabaseShare queries or GETs per request), the server used < ServerIdleLimit of its CPUs, and the tool
//     took ≥ SharedCPULimit of its CPUs: the tool, not the databases, was
//     the main user of their CPU (step 2's cache-aside under k6, 65 %: 4.2×
//     direct-db where the Go driver measures 15×). From SharedCPUShare the
//     table only notes it: the rate is lower, the databases still had most
//     of their CPU (step 1's direct-db under k6, 28 %: 0.64× the Go
//     driver's req/s, A1 still reproduced).
func ToolLimit(x Run, plan CPUPlan) string {
	switch {
	case x.ClientBound:
		return "client-bound"
	case sharedLimited(x, plan, SharedCPULimit):
		return fmt.Sprintf("the tool took %.0f%% of the CPUs it shares with the databases", 100*x.ClientBusy(plan))
	}
	return ""
}

// ToolLimitRule states the rule for the table's notes.
func ToolLimitRule() string {
	return say("rule.tool_limit", 100*ClientBusyLimit, 100*ServerIdleLimit, DatabaseShare, 100*ServerIdleLimit, 100*SharedCPULimit, 100*ServerIdleLimit)
}

// countBased reads a claim's tolerance: a count per request (or per key
// expiry, per event, per item, or a peak RSS) and no rate or ceiling in it.
func countBased(c Claim) bool {
	t := strings.ToLower(c.Tolerance)
	for _, rate := range []string{"req/s", "ceiling", "rate", "persist"} {
		if strings.Contains(t, rate) {
			return false
		}
	}
	for _, count := range []string{"/request", "per request", "per key expiry", "per event", "per item", "µs/req", "rss"} {
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

// The client's share of the CPUs it shares with the databases from which a
// row that used them gets a note (SharedCPUShare), and from which a rate
// claim on it is not judged (SharedCPULimit, ToolLimit).
const (
	SharedCPUShare = 0.2
	SharedCPULimit = 0.5
)

// sharesDatabaseCPU: unpinned, everything shares every CPU; pinned, the
// driver may still sit on the databases' CPUs (on 2 CPUs the plan puts
// them together).
func sharesDatabaseCPU(plan CPUPlan) bool {
	if !plan.Pinned {
		return true
	}
	for _, c := range plan.Driver {
		if slices.Contains(plan.Services, c) {
			return true
		}
	}
	return false
}

// DatabaseShare: a row whose requests send at least this many PostgreSQL
// queries or Redis GETs each waits on a database (step 5's burst, 0.02
// GETs per request, does not: the tool beside Redis cannot slow it down).
const DatabaseShare = 0.1

// sharedLimited: a row that waits on a database, neither client- nor
// server-bound, with the tool taking ≥ share of the CPUs it shares with
// the databases.
func sharedLimited(x Run, plan CPUPlan, share float64) bool {
	usedDB := x.PerRequest.DBQueries >= DatabaseShare || x.Extra[RedisGetsPerReq] >= DatabaseShare
	return sharesDatabaseCPU(plan) && usedDB && !x.ClientBound && x.ServerBusy(plan) < ServerIdleLimit && x.ClientBusy(plan) >= share
}

// SharedCPUNote says which rows that used a database, with the server
// not saturated, had a load tool taking a real share of the CPU the
// databases run on. Such a row is not client-bound, yet its req/s is
// lower than with a lighter tool: every millisecond the tool spends there,
// PostgreSQL or Redis does not get. Measured here: step 1's direct-db
// served 0.64× the Go driver's req/s under k6 (28 % of CPU 0), while step
// 8's server-bound rows agreed within 4 %. Empty when no row qualifies.
func SharedCPUNote(runs []Run, plan CPUPlan) string {
	var rows []string
	for _, x := range runs {
		if sharedLimited(x, plan, SharedCPUShare) {
			rows = append(rows, fmt.Sprintf("%s (%.0f%%)", x.Variant, 100*x.ClientBusy(plan)))
		}
	}
	if len(rows) == 0 {
		return ""
	}
	return say("rule.shared_cpu", strings.Join(rows, ", "), 100*SharedCPULimit)
}
