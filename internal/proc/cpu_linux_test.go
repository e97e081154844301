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
