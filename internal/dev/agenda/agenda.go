// Package agenda is `workshop-dev agenda` (make agenda): it times what the room runs on each step —
// `make step-N check SOLUTION=1` and `make step-N bench SOLUTION=1` — and
// writes the figures, with the machine, the date and the load average they
// were measured under, to docs/timings.json. The facilitator guide's tables
// are generated from that file by `make docs` (the "timings" and "agenda"
// regions, internal/dev/docs/plan.go), so every duration in the guide is one anyone can
// re-measure, and TestDocsAreCurrent keeps the guide equal to the file.
package agenda

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/peakload/workshop/internal/dev/workshopbin"
	"github.com/peakload/workshop/internal/harness/config"
	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/stack"
)

// File is where the agenda's measurements live; the guide reads it.
const File = "docs/timings.json"

// Timings is docs/timings.json: one measured run of every step's check and
// bench on the reference solutions.
type Timings struct {
	Date    string   `json:"date"`    // when the run began (UTC, RFC 3339)
	Machine Machine  `json:"machine"` // what it ran on
	Up      Timed    `json:"up"`      // starting the services (the catalogue already seeded or not: see Note)
	Steps   []Timing `json:"steps"`
	Note    string   `json:"note,omitempty"`
}

// Machine says what the durations were measured on: a loaded 2-CPU VM and a
// quiet 8-core laptop give different figures, and the guide must say which.
type Machine struct {
	CPU   string `json:"cpu"`
	CPUs  int    `json:"cpus"`
	OS    string `json:"os"`
	Go    string `json:"go"`
	Stack string `json:"stack"`
	Mongo string `json:"mongo"`
	// Tools are the optional load tools and proxies found at the start:
	// without wrk step 0 measures half its rows, without HAProxy step 10
	// installs it (as root) or fails.
	Tools  map[string]bool `json:"tools"`
	LoadLo float64         `json:"load_min"` // the 1-minute load average, sampled through the whole run
	LoadHi float64         `json:"load_max"`
}

// Timing is one step's check and bench.
type Timing struct {
	Step  int   `json:"step"`
	Check Timed `json:"check"`
	Bench Timed `json:"bench"`
}

// Timed is one command's wall-clock duration and the load it ran under.
type Timed struct {
	Seconds float64 `json:"seconds"`
	OK      bool    `json:"ok"`
	LoadHi  float64 `json:"load_max"`
}

func Run(ctx context.Context, cfg config.Config, args []string) (err error) {
	fs := flag.NewFlagSet("agenda", flag.ContinueOnError)
	out := fs.String("out", File, "where to write the timings")
	only := fs.Int("step", -1, "time only this step (the others are kept from -out)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	sc := cfg.Stack
	t := Timings{Date: time.Now().UTC().Format(time.RFC3339), Machine: thisMachine(sc)}
	load := sampleLoad(ctx)
	started, up, err := timeUp(ctx, sc, load)
	t.Up = up
	defer func() { err = errors.Join(err, stack.DownStarted(sc, started)) }()
	if err != nil {
		return err
	}
	for _, s := range course.All() {
		if *only >= 0 && s.N != *only {
			continue
		}
		t.Steps = append(t.Steps, timeStep(ctx, s.N, load))
		if ctx.Err() != nil { // interrupted: the times so far are not a run's
			return fmt.Errorf("agenda: interrupted at step %d; %s left as it was", s.N, *out)
		}
	}
	t.Machine.LoadLo, t.Machine.LoadHi = load.stop()
	if *only >= 0 {
		t.Steps = mergeSteps(*out, t.Steps)
	}
	return writeTimings(*out, &t)
}

// timeUp starts the services the benches need, so that no bench's duration
// includes starting them (a learner's first bench does; `make up` is timed
// apart).
func timeUp(ctx context.Context, sc stack.Config, load *loadSampler) ([]string, Timed, error) {
	load.reset()
	start := time.Now()
	started, err := stack.Up(ctx, sc)
	if err == nil {
		err = stack.Seed(ctx, sc.Endpoints().PostgresURL)
	}
	return started, Timed{Seconds: since(start), OK: err == nil, LoadHi: load.peak()}, err
}

func timeStep(ctx context.Context, n int, load *loadSampler) Timing {
	return Timing{
		Step:  n,
		Check: timeCommand(ctx, load, "check", n),
		Bench: timeCommand(ctx, load, "bench", n),
	}
}

// timeCommand runs `workshop <action> -step n` on the reference, as
// `make step-n <action> SOLUTION=1` does, with the defaults the README
// gives (no QUICK, no rounds, the Go driver).
func timeCommand(ctx context.Context, load *loadSampler, action string, n int) Timed {
	fmt.Fprintf(os.Stderr, "\n=== agenda: make step-%d %s SOLUTION=1\n", n, action)
	cmd := exec.CommandContext(ctx, workshopbin.Path(), action, "-step", fmt.Sprint(n))
	cmd.Env = append(os.Environ(), "SOLUTION=1", "QUICK=", "DURATION=", "TOOL=", "ARRIVAL=", "RATE=", "CAPACITY=", "RUNS=", "VUS=", "ITERATIONS=")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	load.reset()
	start := time.Now()
	err := cmd.Run()
	t := Timed{Seconds: since(start), OK: err == nil, LoadHi: load.peak()}
	fmt.Fprintf(os.Stderr, "--- agenda: step %d %s: %.0f s (ok %v, load ≤ %.1f)\n", n, action, t.Seconds, t.OK, t.LoadHi)
	return t
}

func since(t time.Time) float64 { return float64(time.Since(t).Round(100*time.Millisecond)) / 1e9 }

// mergeSteps keeps the steps of the file at path that this run did not time.
func mergeSteps(path string, fresh []Timing) []Timing {
	old, err := Read(path)
	if err != nil {
		return fresh
	}
	out := []Timing{}
	for _, s := range old.Steps {
		if s.Step != fresh[0].Step {
			out = append(out, s)
		}
	}
	out = append(out, fresh...)
	slices.SortFunc(out, func(a, b Timing) int { return a.Step - b.Step })
	return out
}

func Read(path string) (*Timings, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("timings: %w (measure them with `make agenda`)", err)
	}
	var t Timings
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &t, nil
}

func writeTimings(path string, t *Timings) error {
	b, err := json.MarshalIndent(t, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("timings: %w", err)
	}
	fmt.Println("wrote", path, "— run `make docs` to put it in the guide")
	return nil
}

// thisMachine describes the machine the agenda runs on.
func thisMachine(sc stack.Config) Machine {
	return Machine{
		CPU:   cpuModel(),
		CPUs:  runtime.NumCPU(),
		OS:    runtime.GOOS + "/" + runtime.GOARCH,
		Go:    runtime.Version(),
		Stack: sc.ResolveKind(),
		Mongo: sc.MongoBackend,
		Tools: Found("wrk", "k6", "haproxy"),
	}
}

func Found(names ...string) map[string]bool {
	out := map[string]bool{}
	for _, n := range names {
		_, err := exec.LookPath(n)
		out[n] = err == nil
	}
	return out
}

// cpuModel is the first "model name" of /proc/cpuinfo (Linux); elsewhere
// the guide says only the CPU count.
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "unknown"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}

// loadSampler reads the 1-minute load average every few seconds: a figure
// measured beside other work is an upper bound, and the guide says how busy
// the machine was while each command ran.
type loadSampler struct {
	mu             sync.Mutex
	lo, hi, window float64
}

func sampleLoad(ctx context.Context) *loadSampler {
	l := &loadSampler{lo: -1}
	l.add(loadAvg())
	go func() {
		tick := time.NewTicker(5 * time.Second)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				l.add(loadAvg())
			}
		}
	}()
	return l
}

func (l *loadSampler) add(v float64) {
	if v < 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.lo < 0 || v < l.lo {
		l.lo = v
	}
	l.hi, l.window = max(l.hi, v), max(l.window, v)
}

// reset begins a command's window; peak ends it.
func (l *loadSampler) reset() {
	l.mu.Lock()
	l.window = 0
	l.mu.Unlock()
	l.add(loadAvg())
}

func (l *loadSampler) peak() float64 {
	l.add(loadAvg())
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.window
}

func (l *loadSampler) stop() (lo, hi float64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.lo, l.hi
}

// loadAvg is /proc/loadavg's first field, or -1 where there is none.
func loadAvg() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return -1
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return -1
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return -1
	}
	return v
}
