package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/peakload/workshop/internal/events"
	"github.com/peakload/workshop/internal/stack"
)

// These checks run the step as a real process against a private FerretDB,
// stop and restart things under load, and count what was stored.

func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// privateMongo starts `workshop mongo` (FerretDB) on a free port.
func privateMongo(t *testing.T, addr, dir string) *exec.Cmd {
	t.Helper()
	bin, err := stack.WorkshopBinary(stack.FromEnv())
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "mongo", "--listen", addr, "--dir", dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _, _ = cmd.Process.Wait() })
	deadline := time.Now().Add(20 * time.Second)
	for stack.PingMongo(context.Background(), "mongodb://"+addr+"/") != nil {
		if time.Now().After(deadline) {
			t.Fatal("private FerretDB did not start")
		}
		time.Sleep(50 * time.Millisecond)
	}
	return cmd
}

// startStep builds and starts this step's server (your code, or the
// reference under SOLUTION=1) against mongoURL.
func startStep(t *testing.T, mongoURL string) (*exec.Cmd, string) {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "step-06")
	args := []string{"build", "-o", bin}
	if solutionBuild {
		args = append(args, "-tags", "solution")
	}
	if out, err := exec.Command("go", append(args, ".")...).CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	addr := freeAddr(t)
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "PEAKLOAD_ADDR="+addr, "PEAKLOAD_MONGO_URL="+mongoURL)
	log, _ := os.Create(filepath.Join(t.TempDir(), "server.log"))
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _, _ = cmd.Process.Wait() })
	deadline := time.Now().Add(20 * time.Second)
	for {
		if resp, err := http.Get("http://" + addr + "/healthz"); err == nil {
			resp.Body.Close()
			return cmd, "http://" + addr
		}
		if time.Now().After(deadline) {
			t.Fatal("step server did not start")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// load posts events from 20 clients until stop is closed or the server
// goes away, honouring 503 + Retry-After, and counts the 202s.
func load(target string, stop <-chan struct{}) *atomic.Int64 {
	var accepted atomic.Int64
	var wg sync.WaitGroup
	client := &http.Client{Timeout: 10 * time.Second}
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				resp, err := client.Post(target+"/events/bulk", "application/json", strings.NewReader(event))
				if err != nil {
					return // the server is gone
				}
				resp.Body.Close()
				switch resp.StatusCode {
				case http.StatusAccepted:
					accepted.Add(1)
				case http.StatusServiceUnavailable:
					time.Sleep(100 * time.Millisecond)
				}
			}
		}()
	}
	go func() { wg.Wait() }()
	return &accepted
}

func count(t *testing.T, mongoURL string) int64 {
	store, err := events.Open(context.Background(), mongoURL)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close(context.Background())
	n, err := store.Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// SIGTERM in the middle of the load: everything the server acknowledged is
// in the database once it has exited.
func TestSIGTERMUnderLoadLosesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("runs processes")
	}
	mongoAddr := freeAddr(t)
	privateMongo(t, mongoAddr, t.TempDir())
	mongoURL := "mongodb://" + mongoAddr + "/"
	srv, target := startStep(t, mongoURL)
	stop := make(chan struct{})
	accepted := load(target, stop)
	time.Sleep(1500 * time.Millisecond)
	_ = srv.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- srv.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("server exited with %v", err)
		}
	case <-time.After(40 * time.Second):
		t.Fatal("server did not exit after SIGTERM")
	}
	close(stop)
	time.Sleep(100 * time.Millisecond) // responses still being read count too
	if got, want := count(t, mongoURL), accepted.Load(); got != want || want == 0 {
		t.Fatalf("accepted %d events, %d persisted after SIGTERM", want, got)
	}
}

// MongoDB restarting in the middle of the load: the batcher retries, and
// everything acknowledged is stored in the end.
func TestMongoRestartUnderLoadLosesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("runs processes")
	}
	mongoAddr, dir := freeAddr(t), t.TempDir()
	mongo := privateMongo(t, mongoAddr, dir)
	mongoURL := "mongodb://" + mongoAddr + "/"
	srv, target := startStep(t, mongoURL)
	stop := make(chan struct{})
	accepted := load(target, stop)
	time.Sleep(time.Second)
	_ = mongo.Process.Signal(syscall.SIGTERM)
	_, _ = mongo.Process.Wait()
	time.Sleep(time.Second) // the database is down: the buffer fills, clients get 503
	privateMongo(t, mongoAddr, dir)
	time.Sleep(time.Second)
	close(stop)
	time.Sleep(200 * time.Millisecond)
	_ = srv.Process.Signal(syscall.SIGTERM) // flush what is left, then exit
	if _, err := srv.Process.Wait(); err != nil {
		t.Fatal(err)
	}
	if got, want := count(t, mongoURL), accepted.Load(); got != want || want == 0 {
		t.Fatalf("accepted %d events, %d persisted after a MongoDB restart", want, got)
	}
	fmt.Fprintf(os.Stderr, "restart check: %d events accepted and persisted\n", accepted.Load())
}
