package proc

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// Pin restricts every thread of a process to the given CPUs. Threads made
// later inherit the mask from the thread that makes them, so pinning the
// existing ones pins the process for good.
func Pin(pid int, cpus []int) error {
	var set unix.CPUSet
	for _, c := range cpus {
		set.Set(c)
	}
	// Twice: a thread created while we walk the list is caught the second time.
	for range 2 {
		tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
		if err != nil {
			return fmt.Errorf("pin %d: %w", pid, err)
		}
		for _, t := range tasks {
			tid, _ := strconv.Atoi(t.Name())
			if err := unix.SchedSetaffinity(tid, &set); err != nil {
				return fmt.Errorf("pin thread %d to CPUs %v: %w", tid, cpus, err)
			}
		}
	}
	return nil
}

// canPin reports whether this OS lets us pin processes to CPUs.
const canPin = true

// PinTree pins a process and its children (PostgreSQL's backends, which the
// postmaster forks per connection and which inherit its mask from then on).
func PinTree(pid int, cpus []int) error {
	if err := Pin(pid, cpus); err != nil {
		return err
	}
	procs, _ := os.ReadDir("/proc")
	for _, p := range procs {
		child, err := strconv.Atoi(p.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", child))
		if err != nil {
			continue
		}
		// The parent pid is the 2nd field after the ")" closing the command name.
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		f := strings.Fields(s[i+1:])
		if len(f) > 1 && f[1] == strconv.Itoa(pid) {
			_ = Pin(child, cpus)
		}
	}
	return nil
}

// childAttr starts a Child (a step server, HAProxy) in its own process
// group (Ctrl-C goes to the workshop, which stops it gracefully) and asks
// the kernel to SIGTERM it if the workshop dies first, so none is left
// behind.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
}
