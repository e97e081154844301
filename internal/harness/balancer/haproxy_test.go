package balancer

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestConfig(t *testing.T) {
	rr := Config(8090, RoundRobin, []string{"127.0.0.1:1", "127.0.0.1:2"})
	hash := Config(8090, ByItem, []string{"127.0.0.1:1"})
	for _, want := range []string{"bind 127.0.0.1:8090", "balance roundrobin", "server r1 127.0.0.1:1 check", "server r2 127.0.0.1:2 check", "option httpchk GET /healthz"} {
		if !strings.Contains(rr, want) {
			t.Errorf("round-robin config lacks %q:\n%s", want, rr)
		}
	}
	if strings.Contains(rr, "hash-type") || !strings.Contains(hash, "balance uri\n    hash-type consistent") {
		t.Errorf("hash-type consistent belongs to the uri balance only:\n%s\n%s", rr, hash)
	}
}

// The real HAProxy in front of two stand-in replicas: round-robin
// alternates, hashing by path keeps an item on one replica.
func TestHAProxyRoutes(t *testing.T) {
	if testing.Short() {
		t.Skip("starts HAProxy: skipped under -short")
	}
	if _, err := Binary(); err != nil {
		t.Skip(err)
	}
	var backends []string
	for i := range 2 {
		s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprintf(w, "r%d", i+1)
		}))
		t.Cleanup(s.Close)
		backends = append(backends, strings.TrimPrefix(s.URL, "http://"))
	}
	get := func(h *HAProxy, path string) string {
		resp, err := http.Get(h.Target + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	for _, c := range []struct {
		balance Balance
		paths   []string
		same    bool
	}{
		{RoundRobin, []string{"/burst/items/7", "/burst/items/7", "/burst/items/7", "/burst/items/7"}, false},
		{ByItem, []string{"/burst/items/7", "/burst/items/7", "/burst/items/7", "/burst/items/7"}, true},
	} {
		h, err := StartHAProxy(t.Context(), t.TempDir(), c.balance, backends)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]int{}
		for _, p := range c.paths {
			seen[get(h, p)]++
		}
		h.Stop()
		if (len(seen) == 1) != c.same {
			t.Errorf("balance %s: one item's requests went to %v", c.balance, seen)
		}
	}
}

// `make down` stops a balancer a killed bench left behind, by its pid
// file, and leaves alone a pid that runs something else.
func TestStopLeftovers(t *testing.T) {
	if testing.Short() {
		t.Skip("starts HAProxy: skipped under -short")
	}
	bin, err := Binary()
	if err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	sub := filepath.Join(dir, "step-10")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(sub, "haproxy.cfg")
	if err := os.WriteFile(cfg, []byte(Config(0, RoundRobin, []string{"127.0.0.1:1"})), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-db", "-f", cfg)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	_ = writePID(sub, "haproxy", cmd.Process.Pid)
	_ = writePID(sub, "replica-1", os.Getpid()) // this test binary: not ours to stop
	stopped := StopLeftovers(dir)
	if len(stopped) != 1 || !strings.HasPrefix(stopped[0], "haproxy") {
		t.Fatalf("stopped %v, want the haproxy only", stopped)
	}
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		t.Fatal("haproxy still runs after StopLeftovers")
	}
	if left, _ := filepath.Glob(filepath.Join(sub, "*.pid")); len(left) != 0 {
		t.Errorf("pid files left: %v", left)
	}
}
