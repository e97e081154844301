package stack

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// isolated is a private native stack on free ports in a temp directory, so
// the test never touches the learner's (or make test's) running services.
func isolated(t *testing.T) Config {
	dir, err := os.MkdirTemp("", "peakload-stack-test-") // under /tmp: traversable by postgres
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return Config{Dir: dir, Kind: "native", Host: "127.0.0.1",
		PGPort: freePort(t), RedisPort: freePort(t), MongoPort: freePort(t), Log: t.Logf}
}

func TestPortTakenByAnotherProgramIsAClearError(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	c := isolated(t)
	c.RedisPort = ln.Addr().(*net.TCPAddr).Port
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	started, err := Up(ctx, c, Redis)
	if err == nil || !strings.Contains(err.Error(), "already taken") {
		t.Fatalf("Up on a taken port: started %v, err %v; want an 'already taken' error", started, err)
	}
}

// TestLifecycle: up starts every service, a second up starts nothing, down
// stops exactly what up started and leaves no process behind.
func TestLifecycle(t *testing.T) {
	if testing.Short() {
		t.Skip("starts three servers")
	}
	c := isolated(t)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	started, err := Up(ctx, c)
	t.Cleanup(func() { _ = Down(c) })
	if err != nil {
		t.Fatal(err)
	}
	if len(started) != 3 {
		t.Fatalf("started %v, want all three", started)
	}
	pids := PIDs(c)
	if len(pids) != 3 {
		t.Fatalf("pids %v", pids)
	}
	if err := PingMongo(ctx, c.Endpoints().MongoURL); err != nil {
		t.Fatalf("mongo wire: %v", err)
	}
	again, err := Up(ctx, c)
	if err != nil || len(again) != 0 {
		t.Fatalf("second Up started %v (err %v), want nothing", again, err)
	}
	if err := Down(c); err != nil {
		t.Fatal(err)
	}
	for _, pid := range pids {
		if alive(pid) {
			t.Errorf("process %d still running after Down", pid)
		}
	}
	for _, port := range []int{c.PGPort, c.RedisPort, c.MongoPort} {
		if listening(c.Host, port) {
			t.Errorf("port %d still listening after Down", port)
		}
	}
	if len(Started(c)) != 0 {
		t.Errorf("state still lists %v", Started(c))
	}
}

func TestTraversable(t *testing.T) {
	dir := t.TempDir()
	closed := filepath.Join(dir, "closed")
	open := filepath.Join(closed, "open")
	if err := os.MkdirAll(open, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(closed, 0o700); err != nil {
		t.Fatal(err)
	}
	if traversable(open, 54321, 54321) {
		t.Fatal("a 0700 parent owned by someone else was judged traversable")
	}
	if err := os.Chmod(closed, 0o755); err != nil {
		t.Fatal(err)
	}
	if !traversable(open, 54321, 54321) && traversable(filepath.Dir(dir), 54321, 54321) {
		t.Fatal("0755 parents judged not traversable")
	}
}
