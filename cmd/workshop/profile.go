package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/harness/config"
	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/hotspot"
	"github.com/peakload/workshop/internal/harness/load"
	"github.com/peakload/workshop/internal/harness/proc"
	"github.com/peakload/workshop/internal/harness/scenario"
	"github.com/peakload/workshop/internal/harness/stack"
)

// hideSync drops the lock's own frames from the contention profile, so its
// waiting is charged to the function that took the lock: the culprit.
const hideSync = `^(sync|internal/sync|runtime)\.`

// runProfile is `make step-N profile`: one variant under load (VARIANT, else
// the step's Profile, else its last: the learner's "after") while /debug/pprof records
// a CPU and a mutex profile; then `go tool pprof -top` of each, a one-line
// reading of both, and a call graph (SVG with graphviz, else the command
// for pprof's web UI).
func runProfile(ctx context.Context, cfg config.Config, args []string) error {
	return withServices(ctx, cfg, "profile", args, func(step scenario.Step, sc stack.Config) error { return profileStep(ctx, cfg, step, sc) })
}

// profileSeconds is how long the CPU profile records.
const profileSeconds = 8

func profileStep(ctx context.Context, cfg config.Config, step scenario.Step, sc stack.Config) error {
	bin, err := buildStep(ctx, cfg, sc, step)
	if err != nil {
		return err
	}
	params := params.Load()
	o := loadOptions(cfg, params)
	if step.VUs > 0 && cfg.VUs == 0 {
		o.VUs = step.VUs
	}
	variants := step.Variants(scenario.Env{Params: params, Tool: "go"})
	v, err := profiled(step, variants, cfg.Variant)
	if err != nil {
		return err
	}
	plan := step.Plan(cfg.NoPin)
	if plan.Pinned {
		_ = proc.Pin(os.Getpid(), plan.Driver)
	}
	env := append(append(sc.Endpoints().Env(), "PEAKLOAD_MUTEX_PROFILE=1"), v.Server...)
	srv, err := proc.StartServer(ctx, bin, env, plan, filepath.Join(sc.Dir, fmt.Sprintf("step-%02d.log", step.N)))
	if err != nil {
		return err
	}
	defer srv.Stop()

	dir := filepath.Join(resultsDir(), fmt.Sprintf("step-%d", step.N), "profile")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	fmt.Fprint(os.Stderr, messages.T("profile.start", step.N, v.Name, v.Route, profileSeconds, o.VUs, plan.Procs()))
	pr := profiles{bin: bin, dir: dir, cpu: filepath.Join(dir, "cpu.pprof"),
		mutexBase: filepath.Join(dir, "mutex-base.pprof"), mutex: filepath.Join(dir, "mutex.pprof")}
	if err := pr.capture(ctx, srv.Target, o.VUs, v); err != nil {
		return err
	}
	pr.printTops(ctx)
	fmt.Print(messages.T("profile.short", plan.Procs(), profileSeconds))
	if s, err := readCPU(pr.cpu); err == nil {
		fmt.Println(s)
	}
	if s, err := readContention(pr.mutexBase, pr.mutex, profileSeconds); err == nil {
		fmt.Println(s)
	}
	return pr.callGraph(ctx)
}

// profiles are one profiling run's files: the server binary they read,
// the CPU profile, and the mutex profile before and after the window.
type profiles struct{ bin, dir, cpu, mutexBase, mutex string }

// capture loads v while the server records a CPU profile. The mutex
// profile counts from the start: take it twice and diff, so it covers the
// same seconds as the CPU profile.
func (p profiles) capture(ctx context.Context, target string, vus int, v load.Variant) error {
	loading := make(chan error, 1)
	go func() {
		_, err := load.Drive(ctx, load.Options{Target: target, VUs: vus, Duration: (profileSeconds + 2) * time.Second, Warmup: time.Second}, v, func(string) {})
		loading <- err
	}()
	time.Sleep(1500 * time.Millisecond)
	if err := fetch(ctx, target+"/debug/pprof/mutex", p.mutexBase); err != nil {
		return err
	}
	if err := fetch(ctx, fmt.Sprintf("%s/debug/pprof/profile?seconds=%d", target, profileSeconds), p.cpu); err != nil {
		return err
	}
	if err := fetch(ctx, target+"/debug/pprof/mutex", p.mutex); err != nil {
		return err
	}
	return <-loading
}

// printTops prints `go tool pprof -top` of both profiles.
func (p profiles) printTops(ctx context.Context) {
	for _, f := range []struct{ title, file string }{
		{messages.T("profile.cpu_title"), p.cpu},
		{messages.T("profile.mutex_title"), p.mutex},
	} {
		args := []string{"tool", "pprof", "-top", "-nodecount=12"}
		if f.file == p.mutex {
			args = append(args, "-base="+p.mutexBase, "-hide="+hideSync)
		}
		args = append(args, p.bin, f.file)
		fmt.Printf("\n=== %s\n$ go %s\n", f.title, strings.Join(args, " "))
		top := exec.CommandContext(ctx, "go", args...)
		top.Stdout, top.Stderr = os.Stdout, os.Stderr
		_ = top.Run()
	}
}

// callGraph draws the CPU profile as SVG with graphviz, else says how to
// browse it.
func (p profiles) callGraph(ctx context.Context) error {
	if _, err := exec.LookPath("dot"); err == nil {
		svg := filepath.Join(p.dir, "cpu.svg")
		g := exec.CommandContext(ctx, "go", "tool", "pprof", "-svg", "-output", svg, p.bin, p.cpu)
		if out, err := g.CombinedOutput(); err != nil {
			return fmt.Errorf("pprof -svg: %w\n%s", err, out)
		}
		fmt.Print(messages.T("profile.graph", svg))
	} else {
		fmt.Print(messages.T("profile.no_graphviz", p.bin, p.cpu))
	}
	fmt.Print(messages.T("profile.files", p.cpu, p.mutex, p.bin))
	return nil
}

// profiled picks the variant to load: VARIANT when set (step 0's
// VARIANT=shell-timeouts profiles one layer of the shell), else the step's
// Profile, else its last variant (the learner's "after").
func profiled(step scenario.Step, variants []load.Variant, variant string) (load.Variant, error) {
	name := course.Variant(variant) // as the learner typed it
	if name == "" {
		name = step.Profile
	}
	var names []string
	for _, x := range variants {
		if x.Name == name {
			return x, nil
		}
		names = append(names, string(x.Name))
	}
	if variant != "" {
		return load.Variant{}, errors.New(messages.T("profile.no_variant", name, step.N, strings.Join(names, ", ")))
	}
	return variants[len(variants)-1], nil
}

func readCPU(path string) (string, error) {
	p, err := hotspot.File(path)
	if err != nil {
		return "", err
	}
	r := hotspot.Read(p, 1) // [samples, cpu nanoseconds]
	if r.Total == 0 || p.DurationNanos == 0 {
		return messages.T("profile.cpu_idle"), nil
	}
	where := messages.T("profile.cpu_here", r.Top.Stack(4))
	if r.Top.Func == hotspot.Outside {
		where = messages.T("profile.cpu_outside")
	}
	return messages.T("profile.cpu",
		float64(r.Total)/1e9, float64(p.DurationNanos)/1e9, float64(r.Total)/float64(p.DurationNanos), 100*r.Share(), where), nil
}

func readContention(basePath, path string, seconds int) (string, error) {
	base, err := hotspot.File(basePath)
	if err != nil {
		return "", err
	}
	after, err := hotspot.File(path)
	if err != nil {
		return "", err
	}
	p, err := hotspot.Diff(base, after)
	if err != nil {
		return "", err
	}
	r := hotspot.Read(p, 1) // [contentions, delay nanoseconds]
	if r.Total < int64(time.Millisecond) {
		return messages.T("profile.locks_none"), nil
	}
	where := messages.T("profile.lock_here", r.Top.Stack(3))
	if r.Top.Func == hotspot.Outside {
		where = messages.T("profile.lock_outside")
	}
	return messages.T("profile.locks",
		float64(r.Total)/1e9, seconds, float64(r.Total)/1e9/float64(seconds), 100*r.Share(), where), nil
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
