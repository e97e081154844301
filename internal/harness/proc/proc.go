package proc

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/peakload/workshop/internal/given/dbaddr"
	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/result"
)

// PlanCPUs returns the split for this machine; none when it cannot pin or
// noPin (PEAKLOAD_NO_PIN, config.Config.NoPin) says not to.
func PlanCPUs(noPin bool) result.CPUPlan {
	if !canPin || noPin {
		return result.CPUPlan{}
	}
	return result.PlanFor(runtime.NumCPU())
}

// Proc is a step server the bench started.
type Proc struct {
	Target string
	child  *Child
}

// StartServer builds nothing: it runs a built step binary on a free
// loopback port, pinned and with GOMAXPROCS = its CPUs (one, except for
// step 8), and waits for /healthz.
func StartServer(ctx context.Context, bin string, env []string, plan result.CPUPlan, logPath string) (*Proc, error) {
	return StartProgram(ctx, bin, nil, env, plan, logPath)
}

// StartProgram is StartServer for any program that serves PEAKLOAD_ADDR
// and /healthz: a source's original on Node or Bun (ORIGINAL=1), run with
// args, pinned to the server's CPUs like the Go server.
func StartProgram(ctx context.Context, bin string, args, env []string, plan result.CPUPlan, logPath string) (*Proc, error) {
	port, err := FreePort()
	if err != nil {
		return nil, err
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	cmd := exec.Command(bin, args...)
	cmd.Env = append(append(os.Environ(), env...), "GOMAXPROCS="+strconv.Itoa(plan.Procs()), dbaddr.ServerAddrEnv(addr))
	child, err := StartChild(bin, cmd, logPath)
	if err != nil {
		return nil, err
	}
	p := &Proc{Target: "http://" + addr, child: child}
	if plan.Pinned {
		if err := Pin(cmd.Process.Pid, plan.Server); err != nil {
			p.Stop()
			return nil, err
		}
	}
	if err := p.waitHealthy(ctx, 30*time.Second); err != nil {
		p.Stop()
		return nil, err
	}
	return p, nil
}

func (p *Proc) waitHealthy(ctx context.Context, timeout time.Duration) error {
	switch err := p.child.AwaitOK(ctx, p.Target+"/healthz", timeout); {
	case errors.Is(err, ErrExited):
		return errors.New(messages.T("proc.exited", p.Log(20)))
	case errors.Is(err, ErrNotReady):
		return errors.New(messages.T("proc.unhealthy", timeout, p.Log(20)))
	default:
		return err
	}
}

// Pid is the server's process id; 0 for an External one.
func (p *Proc) Pid() int {
	if p.child.Cmd == nil {
		return 0
	}
	return p.child.Cmd.Process.Pid
}

// Signal sends sig to the server (step 6 sends SIGTERM mid-load).
func (p *Proc) Signal(sig os.Signal) error {
	if p.child.Cmd == nil {
		return errExternal
	}
	return p.child.Cmd.Process.Signal(sig)
}

// Wait waits for the server to exit, and fails if it did not exit 0 (a
// shutdown that ran into its deadline with events unwritten exits 1).
func (p *Proc) Wait(timeout time.Duration) error {
	select {
	case <-p.child.Exited():
		if err := p.child.Err(); err != nil {
			return fmt.Errorf("server exited with %w:\n%s", err, p.Log(10))
		}
		return nil
	case <-time.After(timeout):
		return errors.New(messages.T("proc.no_exit"))
	}
}

// Stop shuts the server down gracefully (SIGTERM), killing it after 30 s.
// How it exited is Wait's to tell.
func (p *Proc) Stop() error {
	if p.child.Stop(30 * time.Second) {
		return errors.New(messages.T("proc.killed"))
	}
	return nil
}

// PeakRSSMB is the most memory the server process has held since it
// started (VmHWM), in MiB; 0 where /proc cannot tell. Article D's "RAM".
func (p *Proc) PeakRSSMB() float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.Pid()))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}

// Log returns the last lines the server printed.
func (p *Proc) Log(lines int) string { return tail(p.child.LogPath, lines) }

// FreePort is a loopback port free at the time of asking: a step server's,
// HAProxy's.
func FreePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

func tail(path string, n int) string {
	b, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// Stopped reports whether the server has exited (step 10 stops a replica
// mid-bench and keeps scraping the others).
func (p *Proc) Stopped() bool {
	select {
	case <-p.child.Exited():
		return true
	default:
		return false
	}
}
