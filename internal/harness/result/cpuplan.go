package result

import "runtime"

// CPUPlan splits the machine: the server on the last CPU with GOMAXPROCS=1
// (the articles' "one Node process", "1 vCPU"), the databases on the CPU
// before it when there are four or more (on two they share the driver's),
// the driver on the rest. On a one-CPU machine nothing is pinned and the
// table says so.
type CPUPlan struct {
	Server   []int `json:"server"`
	Services []int `json:"services"`
	Driver   []int `json:"driver"`
	Pinned   bool  `json:"pinned"`
}

// Wide gives the server every CPU but the driver's first one (all of them
// on a two-CPU machine, shared with the driver). Step 8 needs it: its lesson
// is work serialised on one core while others sit idle, and a server
// confined to one CPU could not show it. The driver of that step is light
// (tens to hundreds of requests per second).
func (p CPUPlan) Wide() CPUPlan {
	if !p.Pinned {
		return p
	}
	return wideFor(runtime.NumCPU())
}

func wideFor(n int) CPUPlan {
	w := CPUPlan{Pinned: true, Driver: []int{0}, Services: []int{0}}
	first := 1
	if n == 2 {
		first = 0
	}
	for c := first; c < n; c++ {
		w.Server = append(w.Server, c)
	}
	return w
}

// Procs is the server's GOMAXPROCS: one per CPU it is pinned to.
func (p CPUPlan) Procs() int {
	if len(p.Server) == 0 {
		return 1
	}
	return len(p.Server)
}

// PlanFor is the plan for a machine of n CPUs (proc.PlanCPUs applies it to this one).
func PlanFor(n int) CPUPlan {
	if n < 2 {
		return CPUPlan{}
	}
	p := CPUPlan{Server: []int{n - 1}, Pinned: true}
	driver := n - 1
	if n >= 4 {
		p.Services = []int{n - 2}
		driver = n - 2
	}
	for i := range driver {
		p.Driver = append(p.Driver, i)
	}
	if p.Services == nil {
		p.Services = p.Driver
	}
	return p
}
