package proc

import (
	"os"
	"syscall"
	"testing"
	"time"
)

// The CPU a process spends shows in two readings around it; a pid that
// does not exist reads 0.
func TestTreeCPUSeconds(t *testing.T) {
	used := func() time.Duration {
		var ru syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	before, start := TreeCPUSeconds([]int{os.Getpid()}), used()
	for used()-start < 300*time.Millisecond { // 0.3 s of CPU, however busy the machine
	}
	if got := TreeCPUSeconds([]int{os.Getpid()}) - before; got < 0.2 || got > 0.5 {
		t.Fatalf("0.3 s of CPU read as %.3f s", got)
	}
	if got := TreeCPUSeconds([]int{1 << 30}); got != 0 {
		t.Fatalf("a pid that does not exist: %.3f s, want 0", got)
	}
}

// A busy loop on one CPU shows as that CPU's busy time.
func TestCPUBusy(t *testing.T) {
	before := CPUBusy()
	if len(before) == 0 {
		t.Fatal("no CPU read from /proc/stat")
	}
	start := SelfCPU()
	for SelfCPU()-start < 300*time.Millisecond {
	}
	after := CPUBusy()
	var total float64
	for c, s := range after {
		total += s - before[c]
	}
	if total < 0.25 {
		t.Fatalf("0.3 s of CPU, but the CPUs were busy %.3f s", total)
	}
}
