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
