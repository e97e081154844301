package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/peakload/workshop/internal/bench"
	"github.com/peakload/workshop/internal/scenario"
	"github.com/peakload/workshop/internal/stack"
	"github.com/peakload/workshop/k6"
)

// runProfile is `make step-N profile`: the step's last variant (its
// "after") under load while /debug/pprof records a CPU and a mutex
// profile; then `go tool pprof -top` of each, and a call graph (SVG with
// graphviz, else the command for pprof's web UI).
func runProfile(ctx context.Context, args []string) error {
	return withServices(ctx, "profile", args, func(step scenario.Step, sc stack.Config) error { return profile(ctx, step, sc) })
}

func profile(ctx context.Context, step scenario.Step, sc stack.Config) error {
	bin, err := buildStep(ctx, sc, step)
	if err != nil {
		return err
	}
	plan := bench.PlanCPUs()
	if plan.Pinned {
		_ = bench.Pin(os.Getpid(), plan.Driver)
	}
	env := append(sc.Endpoints().Env(), "PEAKLOAD_MUTEX_PROFILE=1")
	srv, err := bench.StartServer(ctx, bin, env, plan, filepath.Join(sc.Dir, fmt.Sprintf("step-%02d.log", step.N)))
	if err != nil {
		return err
	}
	defer srv.Stop()

	variants := step.Variants(scenario.Env{Params: k6.Load(), Tool: "go"})
	v := variants[len(variants)-1]
	const seconds = 8
	dir := filepath.Join(resultsDir(), fmt.Sprintf("step-%d", step.N), "profile")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "profiling step %d, variant %s (%s), %d s under %d VUs…\n", step.N, v.Name, v.Route, seconds, k6.Load().Load.VUs)
	load := make(chan error, 1)
	go func() {
		_, err := bench.Drive(ctx, bench.Options{Target: srv.Target, VUs: k6.Load().Load.VUs, Duration: (seconds + 2) * time.Second, Warmup: time.Second}, v, func(string) {})
		load <- err
	}()
	time.Sleep(1500 * time.Millisecond)
	cpu, mutex := filepath.Join(dir, "cpu.pprof"), filepath.Join(dir, "mutex.pprof")
	if err := fetch(ctx, fmt.Sprintf("%s/debug/pprof/profile?seconds=%d", srv.Target, seconds), cpu); err != nil {
		return err
	}
	if err := fetch(ctx, srv.Target+"/debug/pprof/mutex", mutex); err != nil {
		return err
	}
	if err := <-load; err != nil {
		return err
	}
	for _, p := range []struct{ name, file string }{{"CPU", cpu}, {"mutex contention", mutex}} {
		fmt.Printf("\n=== %s: go tool pprof -top %s %s\n", p.name, bin, p.file)
		top := exec.CommandContext(ctx, "go", "tool", "pprof", "-top", "-nodecount=15", bin, p.file)
		top.Stdout, top.Stderr = os.Stdout, os.Stderr
		_ = top.Run()
	}
	if _, err := exec.LookPath("dot"); err == nil {
		svg := filepath.Join(dir, "cpu.svg")
		g := exec.CommandContext(ctx, "go", "tool", "pprof", "-svg", "-output", svg, bin, cpu)
		if out, err := g.CombinedOutput(); err != nil {
			return fmt.Errorf("pprof -svg: %w\n%s", err, out)
		}
		fmt.Printf("\ncall graph: %s\n", svg)
	} else {
		fmt.Printf("\nno graphviz (`make doctor` says how to get it): browse the profile with\n  go tool pprof -http 127.0.0.1:8081 %s %s\n", bin, cpu)
	}
	return nil
}

func fetch(ctx context.Context, url, path string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("fetch %s: %w", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("fetch %s: %s", url, resp.Status)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(f, resp.Body)
	return err
}
