package proc

import (
	"os"
	"runtime"
	"strings"

	"github.com/peakload/workshop/internal/harness/result"
)

// ThisMachine fills Machine for the current host.
func ThisMachine(stack string, plan result.CPUPlan) result.Machine {
	return result.Machine{CPUs: runtime.NumCPU(), CPUModel: cpuModel(), Go: runtime.Version(), OS: runtime.GOOS,
		Arch: runtime.GOARCH, Stack: stack, CPUPlan: plan, ServerGOMAXPROCS: plan.Procs()}
}

func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
