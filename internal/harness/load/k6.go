package load

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/proc"
	"github.com/peakload/workshop/internal/harness/result"
)

// K6 runs a step's k6 script as the load tool behind the same Measure path
// as the Go driver and wrk: the same users, duration, warm-up and server,
// /metrics scraped at the same window edges, so every claim can be judged
// on k6's own figures.
type K6 struct {
	Bin    string // the k6 binary (K6=path overrides the one on PATH)
	Script string // k6/NN-slug.js
}

// FindK6 finds k6: bin when set (K6=, config.Config.K6: a path, or a name on
// PATH), else k6 on PATH. When it is missing the error says where to get it.
func FindK6(bin, script string) (K6, error) {
	bin = cmp.Or(bin, "k6")
	path, err := exec.LookPath(bin)
	if err != nil {
		return K6{}, errors.New(k6Missing(bin))
	}
	return K6{Bin: path, Script: script}, nil
}

func k6Missing(bin string) string {
	s := fmt.Sprintf("TOOL=k6: %q not found. Get k6 from its official packages (https://grafana.com/docs/k6/latest/set-up/install-k6/: "+
		"deb/rpm repositories, Homebrew `brew install k6`, winget) or a release binary (https://github.com/grafana/k6/releases), "+
		"then run again, or point K6=/path/to/k6 at it.", bin)
	if runtime.GOOS == "linux" {
		s += " With a Docker engine and no k6: `make step-N run`, then " +
			"`docker run --rm -i --network host -v \"$PWD/k6:/k6:ro\" grafana/k6 run -e BASE_URL=http://127.0.0.1:8080 /k6/NN-slug.js` " +
			"(host networking: the server listens on 127.0.0.1 only)."
	} else {
		s += " With Docker Desktop and no k6: `make compose-bench STEP=NN-slug` runs the pinned grafana/k6 image."
	}
	return s
}

// exec is a variant's exported function in the script: "empty-get" → empty_get.
func k6Exec(variant course.Variant) string { return strings.ReplaceAll(string(variant), "-", "_") }

// DriveK6 runs one variant with k6, as one k6 process on the driver's
// CPUs: the warm-up, then the measured window, whose edges the script's
// meter reports by calling back (MARK_URL) so that mark — the /metrics
// scrape — runs exactly there. One process, so each VU keeps what the
// warm-up taught it (step 3's ETags, its connection), as the Go driver's
// users do. With ITERATIONS (a count, not a window) the warm-up and the
// measured run are two processes, marked around the second.
//
// The script's handleSummary writes k6's summary to the file named by
// SUMMARY; the row is read from it. A run whose thresholds failed (exit
// code 99) is still a measurement: the claims are judged on the figures,
// and the failed thresholds are counted in Extra[result.K6ThresholdsFailed].
func DriveK6(ctx context.Context, o Options, v Variant, k K6, plan result.CPUPlan, dir string, mark func(phase string)) (result.Run, error) {
	if k.Bin == "" {
		return result.Run{}, errors.New(k6Missing("k6"))
	}
	// k6 refuses a constant-vus scenario shorter than 1 s (QUICK's warm-up
	// is half that): such runs last 1 s under k6.
	o.Duration = max(o.Duration, time.Second)
	if o.Warmup > 0 {
		o.Warmup = max(o.Warmup, time.Second)
	}
	run := func(extra []string, started func(pid int)) (*os.ProcessState, []byte, error) {
		return k.run(ctx, o, v, plan, extra, started)
	}
	summary := filepath.Join(dir, "k6-"+string(v.Name)+".json")
	_ = os.Remove(summary)
	k6Window := k6Timed
	if o.Iterations > 0 {
		k6Window = k6Iterations
	}
	out, cpu, err := k6Window(o, summary, run, mark)
	if err != nil {
		return result.Run{}, err
	}
	b, err := os.ReadFile(summary)
	if err != nil {
		return result.Run{}, fmt.Errorf("k6 wrote no summary (the script must export handleSummary from k6/lib/common.js): %w\n%s", err, lastLines(string(out), 20))
	}
	r, err := ParseK6Summary(b, k6Exec(v.Name))
	if err != nil {
		return result.Run{}, fmt.Errorf("%s: %w", summary, err)
	}
	r.Variant, r.Route, r.Tool, r.VUs = v.Name, v.Route, "k6", o.VUs
	if o.Iterations == 0 {
		// The measured scenario runs exactly DURATION (gracefulStop 0s:
		// responses after it are not counted); the test run around it also
		// holds the warm-up and k6's start.
		r.DurationS = o.Duration.Seconds()
		r.RPS = float64(r.Requests) / r.DurationS
	}
	if r.Requests > 0 {
		r.ClientCPUus = float64(cpu.Microseconds()) / float64(r.Requests)
	}
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, "  %-22s %5.1fs  %9d req  %9.0f req/s  (k6)\n", v.Name, r.DurationS, r.Requests, r.RPS)
	}
	return r, nil
}

// k6Run runs k6 once with extra arguments; started gets its pid.
type k6Run func(extra []string, started func(pid int)) (*os.ProcessState, []byte, error)

func k6Secs(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + "s" }

// k6Iterations is ITERATIONS=N under k6: a warm-up run, then a run of N
// iterations whose edges are the process's. It returns k6's output and
// its CPU in the window.
func k6Iterations(o Options, summary string, run k6Run, mark func(string)) ([]byte, time.Duration, error) {
	if o.Warmup > 0 {
		if _, _, err := run([]string{"-e", "PHASE=warmup", "-e", "DURATION=" + k6Secs(o.Warmup)}, nil); err != nil {
			return nil, 0, err
		}
	}
	mark("start")
	state, out, err := run([]string{"-e", "PHASE=measure", "-e", "ITERATIONS=" + strconv.Itoa(o.Iterations), "-e", "SUMMARY=" + summary}, nil)
	mark("end")
	return out, childCPU(state), err
}

// k6Timed is a timed window under k6: one run, whose script marks the
// window's edges (MARK_URL) after its warm-up and at its end.
func k6Timed(o Options, summary string, run k6Run, mark func(string)) ([]byte, time.Duration, error) {
	var cpu0, cpu1 time.Duration // k6's CPU at the window's edges
	var pid atomic.Int64
	edges, err := listenForMarks(func(edge string) {
		if edge == "end" {
			cpu1 = procCPU(int(pid.Load()))
		}
		mark(edge)
		if edge == "start" {
			cpu0 = procCPU(int(pid.Load()))
		}
	})
	if err != nil {
		return nil, 0, err
	}
	_, out, err := run([]string{"-e", "WARMUP=" + k6Secs(o.Warmup), "-e", "DURATION=" + k6Secs(o.Duration),
		"-e", "MARK_URL=" + edges.url, "-e", "SUMMARY=" + summary}, func(p int) { pid.Store(int64(p)) })
	if missing := edges.close(); err == nil && missing != "" {
		err = errors.New(messages.T("load.k6_no_mark", missing, lastLines(string(out), 20)))
	}
	return out, cpu1 - cpu0, err
}

// run is one k6 process of a variant: the script with the run's
// parameters and extra's, pinned to the driver's CPUs, started told its
// pid. Crossed thresholds (exit code 99) are reported in the summary, not
// fatal.
func (k K6) run(ctx context.Context, o Options, v Variant, plan result.CPUPlan, extra []string, started func(pid int)) (*os.ProcessState, []byte, error) {
	args := []string{"run", "--quiet", "-e", "BASE_URL=" + o.Target, "-e", "VUS=" + strconv.Itoa(o.VUs), "-e", "VARIANT=" + string(v.Name)}
	args = append(args, extra...)
	for _, kv := range v.Server { // step 0's PEAKLOAD_SHELL, step 9's FRAMEWORK and PG_POOL pick the script's rows
		args = append(args, "-e", kv)
	}
	args = append(args, k.Script)
	cmd := exec.CommandContext(ctx, k.Bin, args...)
	cmd.Env = append(os.Environ(), "K6_NO_USAGE_REPORT=true")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return nil, nil, fmt.Errorf("k6: %w", err)
	}
	if plan.Pinned {
		_ = proc.PinTree(cmd.Process.Pid, plan.Driver)
	}
	if started != nil {
		started(cmd.Process.Pid)
	}
	err := cmd.Wait()
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 99 {
		err = nil // thresholds crossed: reported, not fatal
	}
	if err != nil {
		return cmd.ProcessState, out.Bytes(), fmt.Errorf("k6: %w\n%s", err, lastLines(out.String(), 20))
	}
	return cmd.ProcessState, out.Bytes(), nil
}

// marks is the bench's end of MARK_URL: the script's meter GETs /start
// and /end, and each is answered once mark has scraped the server.
type marks struct {
	url  string
	srv  *http.Server
	mu   sync.Mutex
	seen map[string]bool
}

func listenForMarks(mark func(edge string)) (*marks, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listen for k6's marks: %w", err)
	}
	m := &marks{url: "http://" + ln.Addr().String(), seen: map[string]bool{}}
	m.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		edge := strings.TrimPrefix(r.URL.Path, "/")
		if edge != "start" && edge != "end" {
			http.Error(w, "want /start or /end", http.StatusNotFound)
			return
		}
		m.mu.Lock()
		defer m.mu.Unlock()
		if m.seen[edge] || (edge == "end" && !m.seen["start"]) {
			http.Error(w, "mark "+edge+" out of order", http.StatusConflict)
			return
		}
		m.seen[edge] = true
		mark(edge)
	}), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = m.srv.Serve(ln) }()
	return m, nil
}

// close stops listening and names the edge never marked, if any.
func (m *marks) close() string {
	_ = m.srv.Close()
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, edge := range []string{"start", "end"} {
		if !m.seen[edge] {
			return edge
		}
	}
	return ""
}

// procCPU is the CPU time a running process has used so far, all its
// threads (Linux /proc; 0 elsewhere, where the row's client CPU is then
// not measured).
func procCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// Fields after the command name, which is in parentheses and may hold spaces.
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * time.Second / clockTicks
}

// clockTicks is USER_HZ, the unit of /proc's CPU times: 100 on every
// Linux the workshop runs on.
const clockTicks = 100

// childCPU is the user + system time a finished child process used.
func childCPU(s *os.ProcessState) time.Duration {
	if s == nil {
		return 0
	}
	return s.UserTime() + s.SystemTime()
}

// k6Summary is the object k6 passes to handleSummary (k6 ≥ 0.30, also
// v1 and v2): metrics by name, each with its aggregated values and the
// thresholds set on it; per-scenario figures are submetrics named like
// "http_reqs{scenario:direct_db}", present because the script sets a
// threshold on them. The older --summary-export file has the same names
// with the values directly on the metric (no "values"), and thresholds as
// booleans: both shapes are read.
type k6Summary struct {
	State struct {
		TestRunDurationMs float64 `json:"testRunDurationMs"`
	} `json:"state"`
	Metrics map[string]k6Metric `json:"metrics"`
}

type k6Metric struct {
	Values     map[string]float64
	Thresholds map[string]bool // condition → passed
}

func (m *k6Metric) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	m.Values = map[string]float64{}
	src := raw
	if v, ok := raw["values"]; ok { // handleSummary's shape
		if err := json.Unmarshal(v, &src); err != nil {
			return err
		}
	}
	for k, v := range src {
		var f float64
		if json.Unmarshal(v, &f) == nil {
			m.Values[k] = f
		}
	}
	if t, ok := raw["thresholds"]; ok {
		m.Thresholds = map[string]bool{}
		var objs map[string]struct {
			OK bool `json:"ok"`
		}
		var bools map[string]bool
		switch {
		case json.Unmarshal(t, &objs) == nil:
			for k, v := range objs {
				m.Thresholds[k] = v.OK
			}
		case json.Unmarshal(t, &bools) == nil:
			// --summary-export: true means the threshold was crossed (failed).
			for k, v := range bools {
				m.Thresholds[k] = !v
			}
		}
	}
	return nil
}

// ParseK6Summary turns k6's summary into a row. scenario is the variant's
// scenario name; its submetrics are used when present, else the whole
// test's metrics (a run of that one scenario, plus setup and teardown).
func ParseK6Summary(b []byte, scenario string) (result.Run, error) {
	var s k6Summary
	if err := json.Unmarshal(b, &s); err != nil {
		return result.Run{}, fmt.Errorf("not a k6 summary: %w", err)
	}
	metric := func(name string) (map[string]float64, bool) {
		if m, ok := s.Metrics[name+"{scenario:"+scenario+"}"]; ok {
			return m.Values, true
		}
		m, ok := s.Metrics[name]
		return m.Values, ok
	}
	reqs, ok := metric("http_reqs")
	if !ok {
		return result.Run{}, errors.New(messages.T("load.k6_no_requests"))
	}
	r := result.Run{Requests: int64(reqs["count"]), DurationS: s.State.TestRunDurationMs / 1000}
	// Requests per second over the measured scenario: k6's own rate is over
	// the whole test run (setup and teardown included), so it is recomputed
	// from the count when the run's duration is known.
	switch {
	case r.DurationS > 0:
		r.RPS = float64(r.Requests) / r.DurationS
	case reqs["rate"] > 0:
		r.RPS = reqs["rate"]
		r.DurationS = float64(r.Requests) / r.RPS
	}
	if d, ok := metric("http_req_duration"); ok {
		p50, ok := d["med"]
		if !ok {
			p50 = d["p(50)"]
		}
		r.Latency = result.Latency{P50: p50, P95: d["p(95)"], P99: d["p(99)"], Max: d["max"], Mean: d["avg"]}
	}
	r.Errors = k6Errors(metric, r.Requests)
	if d, ok := metric("data_received"); ok && r.Requests > 0 {
		r.PerRequest.PublicBytes = d["count"] / float64(r.Requests)
	}
	if failed := s.failedThresholds(); failed > 0 {
		r.Extra = map[result.Key]float64{result.K6ThresholdsFailed: float64(failed)}
	}
	return r, nil
}

// k6Errors is the requests k6 counted as failed (statuses the script does
// not expect, transport errors) or its failed checks, whichever is more.
func k6Errors(metric func(string) (map[string]float64, bool), requests int64) int64 {
	var errs int64
	if f, ok := metric("http_req_failed"); ok {
		n, has := f["passes"] // a Rate's passes are its true values: the failed requests
		if !has {
			n = f["rate"] * float64(requests)
			if v, ok := f["value"]; ok && f["rate"] == 0 {
				n = v * float64(requests)
			}
		}
		errs = int64(n + 0.5)
	}
	if c, ok := metric("checks"); ok && int64(c["fails"]) > errs {
		errs = int64(c["fails"])
	}
	return errs
}

// failedThresholds counts the thresholds the run did not meet.
func (s k6Summary) failedThresholds() int {
	failed := 0
	for _, m := range s.Metrics {
		for _, ok := range m.Thresholds {
			if !ok {
				failed++
			}
		}
	}
	return failed
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
