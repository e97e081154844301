package proc

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// Child is a process the workshop started and watches — a step server,
// HAProxy in front of step 10's replicas: its output goes to a log file,
// it runs in its own process group (Ctrl-C goes to the workshop, which
// stops it) and, on Linux, the kernel SIGTERMs it if the workshop dies
// first, so none is left behind.
type Child struct {
	Cmd     *exec.Cmd
	LogPath string
	exited  chan struct{}
	err     error // Cmd.Wait's, once exited is closed
}

// StartChild starts cmd with its output in a new file at logPath; name
// is what its errors call it.
func StartChild(name string, cmd *exec.Cmd, logPath string) (*Child, error) {
	logf, err := os.Create(logPath) // its error names the path
	if err != nil {
		return nil, err
	}
	defer logf.Close()
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = childAttr()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	c := &Child{Cmd: cmd, LogPath: logPath, exited: make(chan struct{})}
	go func() { c.err = cmd.Wait(); close(c.exited) }()
	return c, nil
}

// exitedChild stands for a process of someone else's: there is nothing to
// wait for or stop.
func exitedChild() *Child {
	c := &Child{exited: make(chan struct{})}
	close(c.exited)
	return c
}

// Exited is closed once the process has exited.
func (c *Child) Exited() <-chan struct{} { return c.exited }

// Err is how the process exited (Cmd.Wait's error), once Exited is closed.
func (c *Child) Err() error { return c.err }

// What AwaitOK gives up on: the process died, or never answered.
var (
	ErrExited   = errors.New("exited during start-up")
	ErrNotReady = errors.New("not ready in time")
)

// awaitClient bounds each poll: a process that accepts and never answers
// must not hold AwaitOK past its timeout.
var awaitClient = &http.Client{Timeout: time.Second}

// AwaitOK polls GET url until it answers 200 OK, for at most timeout. It
// returns ErrExited as soon as the process exits, ctx's error once ctx
// ends, and ErrNotReady when time runs out.
func (c *Child) AwaitOK(ctx context.Context, url string, timeout time.Duration) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("await %s: %w", url, err)
	}
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); {
		select {
		case <-c.exited:
			return ErrExited
		case <-ctx.Done():
			return ctx.Err()
		default:
		}
		if resp, err := awaitClient.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	return ErrNotReady
}

// Stop sends SIGTERM and waits for the process to exit, killing it after
// grace; it says whether it had to.
func (c *Child) Stop(grace time.Duration) (killed bool) {
	select {
	case <-c.exited:
		return false
	default:
	}
	_ = c.Cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-c.exited:
		return false
	case <-time.After(grace):
		_ = c.Cmd.Process.Kill()
		<-c.exited
		return true
	}
}
