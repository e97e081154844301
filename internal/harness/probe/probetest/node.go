package probetest

import (
	"embed"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/peakload/workshop/internal/harness/original"
)

// scripts are the Node services of testdata/: servers nobody on the
// project would write for the audit, as their frameworks ship.
//
//go:embed testdata/*.js
var scripts embed.FS

// Node starts testdata/<script> (express.js, fastify.js) under Node with
// the frameworks make prefetch-originals installs (originals/node_modules,
// through NODE_PATH; the script is copied out, so nothing is written in the
// tree), on a free loopback port, and returns its base URL. It skips the
// test, saying what to run, where Node or those packages are missing.
func Node(t testing.TB, script string) string {
	t.Helper()
	node, err := original.NodeBinary()
	root, rerr := original.Root()
	if err == nil && rerr == nil {
		_, err = os.Stat(filepath.Join(root, original.Dir, "node_modules", "express"))
	}
	if err = errors.Join(err, rerr); err != nil {
		t.Skipf("Node and the frameworks are not installed here (make prefetch-originals): %s is not checked: %v", script, err)
	}
	src, err := scripts.ReadFile("testdata/" + script)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, script)
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	addr := freeAddr(t)
	_, port, _ := net.SplitHostPort(addr)
	cmd := exec.Command(node, path)
	cmd.Env = append(os.Environ(), "NODE_PATH="+filepath.Join(root, original.Dir, "node_modules"), "PORT="+port, "NODE_ENV=production")
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() { _ = cmd.Process.Kill(); <-exited })
	// Node starts in well under a second; a shared machine gets 20.
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		select {
		case <-exited:
			t.Fatalf("node %s exited before listening: %s", script, out.String())
		default:
		}
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return "http://" + addr
		}
	}
	t.Fatalf("node %s did not listen on %s within 20 s: %s", script, addr, out.String())
	return ""
}
