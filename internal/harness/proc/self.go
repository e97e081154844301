package proc

import (
	"syscall"
	"time"
)

// SelfCPU is the CPU time (user + system) this process has used: the Go
// driver runs in it, so its delta over the window is the driver's cost
// (plus the little the workshop does beside it, e.g. the live-stats worker).
func SelfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
