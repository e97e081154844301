package scenario

import (
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/peakload/workshop/internal/harness/original"
	"github.com/peakload/workshop/internal/harness/probe/probetest"
	"github.com/peakload/workshop/internal/harness/stacktest"
)

// runOriginal starts the source's own server p (originals/), as the bench
// does, on a free loopback port with the stack's addresses and env, and
// returns its base URL. When t ends it sends SIGTERM and fails t unless
// the server exits 0 (the originals shut down gracefully, flushing what
// they hold). Node.js or the packages missing: t skips, saying how to get
// them. stop, called early, does the same and returns the server's log.
func runOriginal(t *testing.T, p original.Program, env ...string) (url string, stop func() string) {
	t.Helper()
	stacktest.SkipShort(t, "the source's own stack (Node.js, and the databases it uses)")
	root, err := original.Root()
	if err == nil {
		var bin string
		var args []string
		if bin, args, err = p.Command(root); err == nil {
			return startOriginal(t, bin, args, p, env)
		}
	}
	if errors.Is(err, original.ErrMissing) {
		t.Skipf("%v (make prefetch-originals)", err)
	}
	t.Fatal(err)
	return "", nil
}

func startOriginal(t *testing.T, bin string, args []string, p original.Program, env []string) (string, func() string) {
	t.Helper()
	addr := probetest.FreeAddr(t)
	log := &lockedLog{}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(append(append(os.Environ(), "PEAKLOAD_ADDR="+addr), stacktest.Endpoints(t).Env()...), append(p.Env, env...)...)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", p, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stopped := false
	stop := func() string {
		if stopped {
			return log.String()
		}
		stopped = true
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case err := <-exited:
			if err != nil {
				t.Errorf("%s did not exit 0 on SIGTERM: %v\n%s", p, err, log.String())
			}
		case <-time.After(60 * time.Second):
			_ = cmd.Process.Kill()
			t.Errorf("%s still running 60 s after SIGTERM (the machine may be overloaded)\n%s", p, log.String())
		}
		return log.String()
	}
	t.Cleanup(func() { stop() })
	url := "http://" + addr
	for deadline := time.Now().Add(90 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if code, _ := call(t, "GET", url+"/healthz", ""); code == http.StatusOK {
			return url, stop
		}
		select {
		case err := <-exited:
			t.Fatalf("%s exited before answering /healthz: %v\n%s", p, err, log.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: no 200 on /healthz after 90 s (the machine may be overloaded)\n%s", p, log.String())
		}
	}
}

// call sends one request and returns the status and body (0 when the
// server did not answer).
func call(t *testing.T, method, url, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// expect fails t unless method url answers want.
func expect(t *testing.T, method, url, body string, want int) string {
	t.Helper()
	code, got := call(t, method, url, body)
	if code != want {
		t.Fatalf("%s %s %.60q: %d %.200s, want %d", method, url, body, code, got, want)
	}
	return got
}

// lockedLog is the server's output, read while it writes.
type lockedLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
