package balancer

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/peakload/workshop/internal/harness/proc"
	"github.com/peakload/workshop/internal/harness/result"
)

// Spec is how to start one replica: the step's built server, its
// environment (the databases' addresses), the CPU plan (every replica on
// the server's CPUs: on a small machine they share them, so req/s cannot
// grow with N — the step's claims are judged by counters) and the
// directory for logs, configuration and pid files.
type Spec struct {
	Bin  string
	Env  []string
	Plan result.CPUPlan
	Dir  string
}

// Fleet is N replicas behind one HAProxy.
type Fleet struct {
	Replicas []*proc.Proc
	LB       *HAProxy
	// StartMS is each replica's cold start: from exec to its first
	// healthy answer (connections to PostgreSQL and Redis included).
	StartMS []float64
	dir     string
}

// StartFleet starts n replicas one after the other (each one's cold start
// measured alone), then HAProxy in front of them. extra(i), when set, adds
// environment to replica i (PEAKLOAD_LISTEN=off: a replica that misses
// every announcement).
func StartFleet(ctx context.Context, s Spec, n int, balance Balance, extra func(i int) []string) (*Fleet, error) {
	dir := filepath.Join(s.Dir, "step-10")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	f := &Fleet{dir: dir}
	if err := f.start(ctx, s, n, balance, extra); err != nil {
		_ = f.Stop()
		return nil, err
	}
	return f, nil
}

func (f *Fleet) start(ctx context.Context, s Spec, n int, balance Balance, extra func(i int) []string) (err error) {
	dir := f.dir
	var backends []string
	for i := range n {
		env := append(slices.Clone(s.Env), "PEAKLOAD_REPLICA=r"+strconv.Itoa(i+1))
		if extra != nil {
			env = append(env, extra(i)...)
		}
		t0 := time.Now()
		p, err := proc.StartServer(ctx, s.Bin, env, s.Plan, filepath.Join(dir, fmt.Sprintf("replica-%d.log", i+1)))
		if err != nil {
			return fmt.Errorf("replica %d: %w", i+1, err)
		}
		f.StartMS = append(f.StartMS, float64(time.Since(t0).Microseconds())/1000)
		f.Replicas = append(f.Replicas, p)
		if err := writePID(dir, fmt.Sprintf("replica-%d", i+1), p.Pid()); err != nil {
			return err
		}
		backends = append(backends, strings.TrimPrefix(p.Target, "http://"))
	}
	if f.LB, err = StartHAProxy(ctx, dir, balance, backends); err != nil {
		return err
	}
	if s.Plan.Pinned {
		if err := proc.Pin(f.LB.Pid(), s.Plan.Services); err != nil {
			return err
		}
	}
	return nil
}

// Scrape reads every replica's counters, in order; a stopped replica
// reads as nil.
func (f *Fleet) Scrape(ctx context.Context) ([]proc.Counters, error) {
	out := make([]proc.Counters, len(f.Replicas))
	var errs error
	for i, p := range f.Replicas {
		if p.Stopped() {
			continue
		}
		c, err := proc.Scrape(ctx, p.Target)
		errs = errors.Join(errs, err)
		out[i] = c
	}
	return out, errs
}

// Stop stops HAProxy first (no new request reaches a stopping replica),
// then every replica.
func (f *Fleet) Stop() error {
	if f.LB != nil {
		f.LB.Stop()
	}
	var errs error
	for i, p := range f.Replicas {
		errs = errors.Join(errs, p.Stop())
		removePID(f.dir, fmt.Sprintf("replica-%d", i+1))
	}
	return errs
}

func writePID(dir, name string, pid int) error {
	return os.WriteFile(filepath.Join(dir, name+".pid"), []byte(strconv.Itoa(pid)+"\n"), 0o644)
}

func removePID(dir, name string) { _ = os.Remove(filepath.Join(dir, name+".pid")) }

// StopLeftovers is `make down`'s part: a workshop killed with SIGKILL (or
// on a system without a parent-death signal) can leave a replica or
// HAProxy running; their pid files say which. A pid is signalled only if
// it still runs one of those programs (a pid may have been reused).
func StopLeftovers(workshopDir string) []string {
	dir := filepath.Join(workshopDir, "step-10")
	files, _ := filepath.Glob(filepath.Join(dir, "*.pid"))
	var stopped []string
	for _, file := range files {
		b, _ := os.ReadFile(file)
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		_ = os.Remove(file)
		if err != nil || pid <= 1 {
			continue
		}
		exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
		if err != nil {
			continue // not running (or not Linux)
		}
		if base := filepath.Base(exe); base != "haproxy" && base != "step-10" {
			continue
		}
		if syscall.Kill(pid, syscall.SIGTERM) == nil {
			stopped = append(stopped, fmt.Sprintf("%s (pid %d)", strings.TrimSuffix(filepath.Base(file), ".pid"), pid))
			waitGone(pid, 5*time.Second)
		}
	}
	return stopped
}

// waitGone waits until pid has exited (its /proc entry is gone or a
// zombie), killing it after timeout.
func waitGone(pid int, timeout time.Duration) {
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil || strings.Contains(string(b), ") Z ") {
			return
		}
	}
	_ = syscall.Kill(pid, syscall.SIGKILL)
}
