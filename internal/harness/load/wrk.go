package load

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/proc"
	"github.com/peakload/workshop/internal/harness/result"
)

// wrkScript sets the request and prints wrk's summary in one parseable line
// (wrk's own report has no p95).
const wrkScript = `
wrk.method = %q
wrk.body = %s
wrk.headers["Content-Type"] = "application/json"
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("PEAKLOAD requests=%%d errors=%%d bytes=%%d duration_us=%%d p50=%%d p95=%%d p99=%%d max=%%d mean=%%f\n",
    summary.requests, e.connect + e.read + e.write + e.status + e.timeout, summary.bytes, summary.duration,
    latency:percentile(50), latency:percentile(95), latency:percentile(99), latency.max, latency.mean))
end
`

// HaveWrk reports whether wrk is installed.
func HaveWrk() bool { _, err := exec.LookPath("wrk"); return err == nil }

// DriveWrk runs a fixed-request variant with wrk, on the driver's CPUs, with
// one connection per VU, so the Go driver can be compared with it.
func DriveWrk(ctx context.Context, o Options, v Variant, plan result.CPUPlan, dir string, mark func(phase string)) (result.Run, error) {
	if v.Prepare != nil {
		return result.Run{}, errors.New(messages.T("load.wrk_fixed", v.Name))
	}
	script, err := writeWrkScript(v, dir)
	if err != nil {
		return result.Run{}, err
	}
	var state *os.ProcessState // the measured run's, for wrk's own CPU
	run := func(d time.Duration) ([]byte, error) {
		out, st, err := runWrk(ctx, o, v, plan, script, d)
		state = st
		return out, err
	}
	if o.Warmup > 0 {
		if _, err := run(o.Warmup); err != nil {
			return result.Run{}, err
		}
	}
	d := o.Duration
	if o.Iterations > 0 || d == 0 {
		d = 10 * time.Second // wrk runs for a time, not a count
	}
	mark("start")
	out, err := run(d)
	mark("end")
	if err != nil {
		return result.Run{}, err
	}
	r, err := parseWrk(out)
	if err != nil {
		return result.Run{}, err
	}
	r.Variant, r.Route, r.Tool, r.VUs = v.Name, v.Route, "wrk", o.VUs
	if r.Requests > 0 {
		r.ClientCPUus = childCPU(state).Seconds() * 1e6 / float64(r.Requests)
	}
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, "  %-22s %5.1fs  %9d req  %9.0f req/s\n", v.Name, r.DurationS, r.Requests, r.RPS)
	}
	return r, nil
}

// writeWrkScript writes the Lua script that makes wrk send v's request.
func writeWrkScript(v Variant, dir string) (string, error) {
	method := v.Method
	if method == "" {
		method = "GET"
	}
	body := "nil"
	if v.Body != nil {
		body = "[==[" + string(v.Body) + "]==]"
	}
	script := filepath.Join(dir, "wrk-"+string(v.Name)+".lua")
	return script, os.WriteFile(script, []byte(fmt.Sprintf(wrkScript, method, body)), 0o644)
}

// runWrk runs wrk for d (whole seconds, at least one) on the driver's
// CPUs, one thread per CPU, and returns its output and process state.
func runWrk(ctx context.Context, o Options, v Variant, plan result.CPUPlan, script string, d time.Duration) ([]byte, *os.ProcessState, error) {
	secs := strconv.Itoa(max(1, int(d.Round(time.Second).Seconds())))
	threads := max(1, len(plan.Driver))
	cmd := exec.CommandContext(ctx, "wrk", "-t", strconv.Itoa(threads), "-c", strconv.Itoa(o.VUs), "-d", secs+"s",
		"--timeout", "30s", "-s", script, o.Target+v.Path)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return nil, nil, fmt.Errorf("wrk: %w", err)
	}
	if plan.Pinned {
		_ = proc.Pin(cmd.Process.Pid, plan.Driver)
	}
	err := cmd.Wait()
	if err != nil {
		return nil, cmd.ProcessState, fmt.Errorf("wrk: %w\n%s", err, out.String())
	}
	return out.Bytes(), cmd.ProcessState, nil
}

func parseWrk(out []byte) (result.Run, error) {
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "PEAKLOAD ")
		if !ok {
			continue
		}
		f := map[string]float64{}
		for _, kv := range strings.Fields(line) {
			k, v, _ := strings.Cut(kv, "=")
			f[k], _ = strconv.ParseFloat(v, 64)
		}
		r := result.Run{Requests: int64(f["requests"]), Errors: int64(f["errors"]), DurationS: f["duration_us"] / 1e6}
		if r.DurationS > 0 {
			r.RPS = float64(r.Requests) / r.DurationS
		}
		if r.Requests > 0 {
			r.PerRequest.PublicBytes = f["bytes"] / float64(r.Requests)
		}
		r.Latency = result.Latency{P50: f["p50"] / 1000, P95: f["p95"] / 1000, P99: f["p99"] / 1000, Max: f["max"] / 1000, Mean: f["mean"] / 1000}
		return r, nil
	}
	return result.Run{}, errors.New(messages.T("load.wrk_no_summary", out))
}
