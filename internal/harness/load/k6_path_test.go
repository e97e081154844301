package load_test

import (
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/load"
	"github.com/peakload/workshop/internal/harness/proc"
	"github.com/peakload/workshop/internal/harness/result"
	"github.com/peakload/workshop/internal/harness/scenario"
	"github.com/peakload/workshop/internal/harness/stacktest"
)

// TestK6PathMatchesTheGoDriverOnCounts runs step 1's rows through the whole
// TOOL=k6 path — warm-up run, measured run between the /metrics scrapes,
// the script's handleSummary, the summary parsed into a row — with the
// Node stand-in for k6 (k6/testdata/shim), and through the Go driver, on
// one real server and PostgreSQL: the count every claim of the step rests
// on (DB queries per request) must agree, and the script's own threshold
// on it (read by its meter from /metrics) must hold.
//
// What the shim cannot prove: that real k6 (v1, v2) accepts the scripts'
// options and writes the same summary (the parser's tests use k6's
// documented shapes; the lead runs real k6), nor any rate: the shim makes
// every request through Node's main thread, so its req/s and client CPU
// are the shim's, not k6's. Nothing here asserts a rate.
func TestK6PathMatchesTheGoDriverOnCounts(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: the k6 stand-in cannot run")
	}
	stacktest.Postgres(t) // skips under -short; the server reads the catalogue
	bin := filepath.Join(t.TempDir(), "step-01")
	if out, err := exec.Command("go", "build", "-o", bin, "../../../steps/01-direct-db").CombinedOutput(); err != nil {
		t.Fatalf("build step 1: %v\n%s", err, out)
	}
	srv, err := proc.StartServer(t.Context(), bin, stacktest.Endpoints(t).Env(), result.CPUPlan{}, filepath.Join(t.TempDir(), "server.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	shim, _ := filepath.Abs("../../../k6/testdata/shim/k6")
	step, _ := scenario.Get(1)
	o := load.Options{Target: srv.Target, VUs: 4, Duration: time.Second, Warmup: 300 * time.Millisecond,
		K6: load.K6{Bin: shim, Script: "../../../k6/01-direct-db.js"}}
	for _, v := range step.Variants(scenario.Env{Params: params.Load(), Tool: "go"}) {
		rows := map[string]result.Run{}
		for _, tool := range []string{"go", "k6"} {
			v.Tool = tool
			r, err := load.Measure(t.Context(), o, v, result.CPUPlan{}, t.TempDir())
			if err != nil {
				t.Fatalf("%s with %s: %v\nserver log:\n%s", v.Name, tool, err, srv.Log(10))
			}
			if r.Tool != tool || r.Requests == 0 || r.Errors != 0 {
				t.Errorf("%s with %s: tool %q, %d requests, %d errors (%s)", v.Name, tool, r.Tool, r.Requests, r.Errors, r.FirstError)
			}
			if r.PerRequest.ServerCPUus == 0 || r.ClientCPUus == 0 {
				t.Errorf("%s with %s: server %.0f µs/req, client %.0f µs/req: both must be measured", v.Name, tool, r.PerRequest.ServerCPUus, r.ClientCPUus)
			}
			if n := r.Extra[result.K6ThresholdsFailed]; n > 0 {
				t.Errorf("%s with %s: %v of the script's thresholds failed (its meter reads the DB queries per request)", v.Name, tool, n)
			}
			rows[tool] = r
		}
		// Counted per completed request (exact_counts): exactly the one
		// query each request sends, under either tool, whatever was in
		// flight at the window's edges.
		want := map[course.Variant]float64{course.EmptyGet: 0, course.DirectDB: 1}[v.Name]
		for tool, r := range rows {
			if q := r.PerRequest.DBQueries; q != want || !r.ExactCounts {
				t.Errorf("%s with %s: %.4f DB queries per request (exact counts: %v), want exactly %.0f", v.Name, tool, q, r.ExactCounts, want)
			}
		}
		if b := rows["k6"].PerRequest.PublicBytes; b < 0.9*rows["go"].PerRequest.PublicBytes || b > 1.1*rows["go"].PerRequest.PublicBytes {
			t.Errorf("%s: k6 received %.0f bytes per request, the Go driver %.0f: both count the whole response", v.Name, b, rows["go"].PerRequest.PublicBytes)
		}
	}
}
