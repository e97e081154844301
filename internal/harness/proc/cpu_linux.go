package proc

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// userHZ is the unit of /proc/<pid>/stat's times (USER_HZ, 100 on Linux).
const userHZ = 100

// TreeCPUSeconds is the CPU time (user + system) that the processes and
// their children have used so far: the live children (PostgreSQL's
// backends, one per connection) and those already gone (counted in their
// parent's cutime and cstime). Two readings around a run give what the
// services spent on it. 0 when nothing can be read.
func TreeCPUSeconds(pids []int) float64 {
	parent := map[int]bool{}
	for _, p := range pids {
		parent[p] = true
	}
	var total float64
	procs, _ := os.ReadDir("/proc")
	for _, e := range procs {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		f := statFields(pid)
		if len(f) < 15 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		if !parent[pid] && !parent[ppid] {
			continue
		}
		last := 12 // utime, stime
		if parent[pid] {
			last = 14 // and the reaped children's cutime, cstime
		}
		for _, s := range f[11 : last+1] {
			t, _ := strconv.ParseFloat(s, 64)
			total += t / userHZ
		}
	}
	return total
}

// statFields are /proc/<pid>/stat's fields after the command name (which
// may hold spaces): state, ppid, … utime is [11], stime [12].
func statFields(pid int) []string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil
	}
	s := string(b)
	return strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
}

// CPUBusy is, per CPU, the seconds it has been busy since boot, read from
// /proc/stat: user, nice, system and steal time. Two readings around a
// window, minus what our own processes used there, give what other
// processes (steal: other virtual machines) took from those CPUs. irq and
// softirq are left out: the kernel charges our loopback traffic there, not
// to our processes, and it would read as a neighbour's. nil when
// /proc/stat cannot be read.
func CPUBusy() map[int]float64 {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return nil
	}
	out := map[int]float64{}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 9 || !strings.HasPrefix(f[0], "cpu") || f[0] == "cpu" {
			continue
		}
		cpu, err := strconv.Atoi(f[0][3:])
		if err != nil {
			continue
		}
		for _, i := range []int{1, 2, 3, 8} { // user, nice, system, steal
			t, _ := strconv.ParseFloat(f[i], 64)
			out[cpu] += t / userHZ
		}
	}
	return out
}
