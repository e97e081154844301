package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/harness/config"
	"github.com/peakload/workshop/internal/harness/proc"
	"github.com/peakload/workshop/internal/harness/result"
	"github.com/peakload/workshop/internal/harness/scenario"
	"github.com/peakload/workshop/internal/harness/stack"
)

// placement is how `make step-N run` places the server: exactly as the
// bench does (the step's CPUPlan, GOMAXPROCS = its CPUs, the same
// environment), so a k6 or wrk run by hand measures the server the bench
// measures, from the CPUs the bench's driver uses.
type placement struct {
	plan  result.CPUPlan
	addr  string   // where the server listens: PEAKLOAD_ADDR, which it inherits (config.Config.ServerAddr)
	env   []string // added to the server's environment
	unpin func()   // gives the databases every CPU back
}

// placeLikeBench pins this process (the live-stats worker runs in it) and
// the databases as the bench does, and returns the server's environment.
func placeLikeBench(cfg config.Config, sc stack.Config, step scenario.Step) (placement, error) {
	plan := step.Plan(cfg.NoPin)
	unpin, err := pinCPUs(sc, plan)
	if err != nil {
		return placement{}, err
	}
	return placement{plan: plan, addr: cfg.ServerAddr, unpin: unpin, env: append(sc.Endpoints().Env(), "GOMAXPROCS="+strconv.Itoa(plan.Procs()))}, nil
}

// pinServer pins the started server to the plan's server CPUs.
func (p placement) pinServer(pid int) error {
	if !p.plan.Pinned {
		return nil
	}
	return proc.Pin(pid, p.plan.Server)
}

// printLoadCommands says where the server is and the commands that put the
// load on the other CPUs.
func (p placement) printLoadCommands(w io.Writer, step scenario.Step) {
	target := "http://" + p.addr
	taskset := ""
	if p.plan.Pinned {
		fmt.Fprint(w, messages.T("place.pinned", cpuList(p.plan.Server), p.plan.Procs(), step.N, cpuList(p.plan.Services)))
		taskset = "taskset -c " + cpuList(p.plan.Driver) + " "
		fmt.Fprint(w, messages.T("place.load_from", cpuList(p.plan.Driver)))
	} else {
		fmt.Fprint(w, messages.T("place.not_pinned", p.plan.Procs()))
		fmt.Fprintln(w, messages.T("place.load_with"))
	}
	fmt.Fprintf(w, "  %sk6 run -e BASE_URL=%s %s\n", taskset, target, step.K6Script())
	vus := params.Load().Load.VUs
	if step.VUs > 0 {
		vus = step.VUs
	}
	threads := max(1, len(p.plan.Driver))
	printed := false
	for _, v := range step.Variants(scenario.Env{Params: params.Load(), Tool: "go"}) {
		if v.Prepare != nil || v.Direct != nil || v.Server != nil || (v.Method != "" && v.Method != "GET") || v.Path == "" {
			continue // wrk replays one fixed GET here; the others build each request
		}
		fmt.Fprintf(w, "  %swrk -t%d -c%d -d10s %s%s    # %s\n", taskset, threads, vus, target, v.Path, v.Name)
		printed = true
	}
	if !printed {
		fmt.Fprintln(w, messages.T("place.no_wrk"))
	}
	fmt.Fprintln(w, messages.T("place.dashboard"))
}

// cpuList is a CPU set as taskset writes it: 0,2,3.
func cpuList(cpus []int) string {
	s := make([]string, len(cpus))
	for i, c := range cpus {
		s[i] = strconv.Itoa(c)
	}
	return strings.Join(s, ",")
}
