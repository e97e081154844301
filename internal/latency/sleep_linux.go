package latency

import (
	"syscall"
	"time"
)

// sleepUntil blocks the thread in nanosleep(2) until t (Go's timers would
// wake up to a millisecond late).
func sleepUntil(t time.Time) {
	for {
		d := time.Until(t)
		if d <= 0 {
			return
		}
		ts := syscall.NsecToTimespec(d.Nanoseconds())
		if syscall.Nanosleep(&ts, nil) == nil {
			return
		}
	}
}

// childAttr makes the kernel stop a proxy process if the workshop dies.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
}
