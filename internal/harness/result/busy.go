package result

import (
	"fmt"
	"slices"
	"strings"

	"github.com/peakload/workshop/internal/harness/course"
)

// A busy machine. A rate is the server's only while the server, the load
// tool and the databases have their CPUs: a compile, a browser tab or a
// neighbour's bench on those CPUs takes a share of every request's time,
// and not evenly over the rows, so a ratio of two rows can land on either
// side of a claim's tolerance. Each window therefore records the share of
// those CPUs that other processes took (Run.OtherCPU), and a claim judged
// on rates whose rows were measured busy is not judged (Judge).

// BusyLimit is the share of its CPUs a row may lose to other processes
// and still be judged. A row that lost a quarter of its time has lost
// more than the margin of the rate tolerances (A0's 0.9×, A5-ceiling's
// 0.8×, B2's 0.55–0.95 around 0.73), and a neighbour does not take it
// evenly from the two rows of a ratio: past it, a verdict says more about
// the neighbours than about the code. Measured (2 CPUs shared by several
// engineers' compiles and benches, load average 24–35): every window
// 74–100 %, with or without a busy loop pinned on CPU 0, so every rate
// verdict was withheld; no idle machine was to be had to measure the
// floor (our own kernel time is left out, proc.CPUBusy, so it should be
// near 0). Our arithmetic: one core's compile of a second within a 10 s
// window is 10 % of that core's group, under the limit: a brief compile
// does not withhold a verdict, minutes of them do. Recalibrate on a quiet
// machine with make test-busy.
const BusyLimit = 0.25

// WindowCPU is what a window measured: each CPU's busy seconds over it
// (proc.CPUBusy, read at both edges), its length, and the CPU seconds our
// own processes used there, by role.
type WindowCPU struct {
	Busy                     map[int]float64
	Seconds                  float64
	Server, Driver, Services float64
}

// OtherShare is the share of the plan's CPUs that other processes took in
// the window w: per group of CPUs, busy time minus ours, over the group's
// time; the largest group's. A group is the CPUs of roles that share any
// (2 CPUs: the server's one, and the driver's with the databases'), so a
// busy loop beside the server shows whole instead of diluted over every
// CPU. Unpinned, everything shares every CPU: one group. 0 when the window
// measured nothing.
func (p CPUPlan) OtherShare(w WindowCPU) float64 {
	if len(w.Busy) == 0 || w.Seconds <= 0 {
		return 0
	}
	var worst float64
	for _, g := range p.groups(w) {
		var busy float64
		for _, c := range g.cpus {
			busy += w.Busy[c]
		}
		share := (busy - g.ours) / (float64(len(g.cpus)) * w.Seconds)
		worst = max(worst, min(share, 1))
	}
	return worst
}

// cpuGroup is a set of CPUs and what our processes used on them.
type cpuGroup struct {
	cpus []int
	ours float64
}

// groups merges the plan's roles into groups of CPUs that share none
// with one another.
func (p CPUPlan) groups(w WindowCPU) []cpuGroup {
	if !p.Pinned {
		all := cpuGroup{ours: w.Server + w.Driver + w.Services}
		for c := range w.Busy {
			all.cpus = append(all.cpus, c)
		}
		return []cpuGroup{all}
	}
	var out []cpuGroup
	for _, r := range []cpuGroup{{p.Server, w.Server}, {p.Driver, w.Driver}, {p.Services, w.Services}} {
		g := cpuGroup{cpus: slices.Clone(r.cpus), ours: r.ours}
		for i := 0; i < len(out); { // absorb every group it touches
			if slices.ContainsFunc(out[i].cpus, func(c int) bool { return slices.Contains(g.cpus, c) }) {
				g.ours += out[i].ours
				for _, c := range out[i].cpus {
					if !slices.Contains(g.cpus, c) {
						g.cpus = append(g.cpus, c)
					}
				}
				out = slices.Delete(out, i, i+1)
				continue
			}
			i++
		}
		if len(g.cpus) > 0 {
			out = append(out, g)
		}
	}
	return out
}

// unmeasuredMark follows a row with no busy share of its own in a claim's
// Busy ("raw-seq –"): the stored text is all a report read back from a
// results file has, so the verdict's wording is chosen from it (busyBeside).
const unmeasuredMark = " –"

// busyBeside says whether a claim's Busy names rows with no share of their
// own, for which the busy rows measured beside them stand in.
func busyBeside(busy string) bool { return strings.Contains(busy, unmeasuredMark) }

// busyRows names the rows among names (all rows when empty) measured with
// other processes taking ≥ BusyLimit of their CPUs, each with its share:
// "empty-get 41%, empty-post 38%"; "" when none. A row driven directly,
// with no server (step 6's raw inserts), has no share measured: when all
// of a claim's rows are such, they are named with "–" and the busy rows
// measured beside them stand in, after a ";" ("raw-seq –, raw-100 –;
// sync 80%"): the claim is not judged on a busy machine, and its line
// names its own rows, not only others'.
func busyRows(runs []Run, names []course.Variant) string {
	var busy, unmeasured []string
	found := 0
	for _, x := range runs {
		if len(names) > 0 && !slices.Contains(names, x.Variant) {
			continue
		}
		found++
		switch {
		case x.OtherCPU >= BusyLimit:
			busy = append(busy, fmt.Sprintf("%s %.0f%%", x.Variant, 100*x.OtherCPU))
		case x.OtherCPU == 0 && x.Tool == "direct":
			unmeasured = append(unmeasured, string(x.Variant)+unmeasuredMark)
		}
	}
	if len(names) == 0 || len(unmeasured) == 0 || len(unmeasured) < found {
		return strings.Join(busy, ", ")
	}
	if beside := busyRows(runs, nil); beside != "" {
		return strings.Join(unmeasured, ", ") + "; " + beside
	}
	return ""
}

// MachineBound: a claim whose verdict a busy machine can move. One judged
// on rates, including one that compares the load tools (a neighbour slows
// one tool's row and not the other's), unless its rate part is a bound its
// rows clear many times over (LooseRate). And one judged on CPU time per
// request: a neighbour on the same core evicts caches and forces switches,
// and a request's CPU grows (issue 32: S0 read 1.09 on one run and 0.87
// beside a busy loop). Counts of queries, bytes, writes do not move.
func MachineBound(c Claim) bool {
	if c.Reproduced == nil {
		return false
	}
	t := strings.ToLower(c.Tolerance)
	return (!countBased(c) && !c.LooseRate) || strings.Contains(t, "µs/req") || strings.Contains(t, "cpu per")
}

// noteBusy withholds the verdict of a rate claim measured on a busy
// machine in one round: Busy names the rows, IfJudged keeps what the
// figures read.
func noteBusy(c *Claim, runs []Run) {
	if !MachineBound(*c) {
		return
	}
	if rows := busyRows(runs, c.Rows); rows != "" {
		c.Busy, c.IfJudged, c.Reproduced, c.Unstable = rows, c.Reproduced, nil, false
	}
}

// othersNote gives every measured row's OtherCPU once one of them reached
// half of BusyLimit: from there the learner should know what the
// neighbours took, before a claim is withheld for it. "" below.
func othersNote(runs []Run) string {
	var rows []string
	var worst float64
	for _, x := range runs {
		if x.OtherCPU > 0 {
			rows = append(rows, fmt.Sprintf("%s %.0f%%", x.Variant, 100*x.OtherCPU))
			worst = max(worst, x.OtherCPU)
		}
	}
	if worst < BusyLimit/2 {
		return ""
	}
	return say("rule.others", strings.Join(rows, ", "), 100*BusyLimit)
}

// BusyRule states the rule for the table's notes.
func BusyRule() string { return say("rule.busy", 100*BusyLimit) }

// Withheld says the claim's verdict was withheld: the load tool limited a
// row, the machine was busy, or its rows could not be read (Unjudge).
func (c Claim) Withheld() bool { return c.NotJudged != "" || c.Busy != "" || c.Unjudged != "" }
