package load

import (
	"math"
	"os"
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/harness/result"
)

// k6's handleSummary data, shaped as documented (Custom summary → summary
// data reference, k6 ≥ 0.30 through v1/v2): the whole test's metrics plus
// the submetrics the script sets thresholds on. Setup and teardown read
// /metrics twice, so the whole test has 2 requests more than the scenario.
const k6HandleSummary = `{
  "root_group": {"name": "", "path": "", "id": "d41d8cd98f00b204e9800998ecf8427e", "groups": [], "checks": []},
  "options": {"summaryTrendStats": ["avg", "min", "med", "p(90)", "p(95)", "p(99)", "max"], "summaryTimeUnit": "", "noColor": false},
  "state": {"isStdOutTTY": false, "isStdErrTTY": false, "testRunDurationMs": 10012.5},
  "metrics": {
    "http_reqs": {"type": "counter", "contains": "default", "values": {"count": 20002, "rate": 1997.7}},
    "http_reqs{scenario:direct_db}": {"type": "counter", "contains": "default", "values": {"count": 20000, "rate": 1997.5},
      "thresholds": {"count>0": {"ok": true}}},
    "http_req_duration": {"type": "trend", "contains": "time", "values": {"avg": 9, "min": 0.2, "med": 8, "p(90)": 12, "p(95)": 14, "p(99)": 30, "max": 400}},
    "http_req_duration{scenario:direct_db}": {"type": "trend", "contains": "time",
      "values": {"avg": 9.5, "min": 0.3, "med": 8.5, "p(90)": 12.5, "p(95)": 14.5, "p(99)": 31, "max": 401},
      "thresholds": {"max<30000": {"ok": true}}},
    "http_req_failed{scenario:direct_db}": {"type": "rate", "contains": "default", "values": {"rate": 0.0015, "passes": 30, "fails": 19970},
      "thresholds": {"rate<0.01": {"ok": true}}},
    "checks{scenario:direct_db}": {"type": "rate", "contains": "default", "values": {"rate": 0.9995, "passes": 19990, "fails": 10}},
    "data_received{scenario:direct_db}": {"type": "counter", "contains": "data", "values": {"count": 8000000, "rate": 799000},
      "thresholds": {"count>0": {"ok": true}}},
    "db_queries_per_req{variant:direct-db}": {"type": "gauge", "contains": "default", "values": {"value": 1, "min": 1, "max": 1},
      "thresholds": {"value>=0.9": {"ok": true}, "value<=1.1": {"ok": false}}},
    "iterations": {"type": "counter", "contains": "default", "values": {"count": 20000, "rate": 1997.5}}
  }
}`

// The older --summary-export file: the same names, values on the metric
// itself, thresholds as "crossed" booleans, and no submetrics.
const k6SummaryExport = `{
  "metrics": {
    "http_reqs": {"count": 180, "rate": 4.36938},
    "http_req_duration": {"avg": 144.56, "min": 104.11, "med": 110.47, "max": 1140, "p(90)": 203.54, "p(95)": 215.95,
      "thresholds": {"p(95)<100": true}},
    "http_req_failed": {"passes": 0, "fails": 180, "value": 0},
    "checks": {"passes": 45, "fails": 45, "value": 0.5},
    "data_received": {"count": 1300000, "rate": 31000}
  }
}`

func TestParseK6HandleSummaryReadsTheScenario(t *testing.T) {
	r, err := ParseK6Summary([]byte(k6HandleSummary), "direct_db")
	if err != nil {
		t.Fatal(err)
	}
	near := func(name string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	if r.Requests != 20000 {
		t.Errorf("requests = %d, want the scenario's 20000 (not the test's 20002 with setup and teardown)", r.Requests)
	}
	near("duration", r.DurationS, 10.0125)
	near("req/s", r.RPS, 20000/10.0125)
	near("p50", r.Latency.P50, 8.5)
	near("p95", r.Latency.P95, 14.5)
	near("p99", r.Latency.P99, 31)
	near("max", r.Latency.Max, 401)
	near("mean", r.Latency.Mean, 9.5)
	near("bytes/request", r.PerRequest.PublicBytes, 400)
	if r.Errors != 30 {
		t.Errorf("errors = %d, want the 30 failed requests (more than the 10 failed checks)", r.Errors)
	}
	if r.Extra[result.K6ThresholdsFailed] != 1 {
		t.Errorf("failed thresholds = %v, want 1", r.Extra[result.K6ThresholdsFailed])
	}
}

func TestParseK6SummaryExport(t *testing.T) {
	r, err := ParseK6Summary([]byte(k6SummaryExport), "empty_get")
	if err != nil {
		t.Fatal(err)
	}
	if r.Requests != 180 || math.Abs(r.RPS-4.36938) > 1e-9 {
		t.Errorf("requests %d at %.5f/s, want 180 at 4.36938/s", r.Requests, r.RPS)
	}
	if math.Abs(r.DurationS-180/4.36938) > 1e-6 {
		t.Errorf("duration %.3f s, want count ÷ rate", r.DurationS)
	}
	if r.Latency.P50 != 110.47 || r.Latency.P95 != 215.95 || r.Latency.Max != 1140 {
		t.Errorf("latency %+v", r.Latency)
	}
	if r.Errors != 45 {
		t.Errorf("errors = %d, want the 45 failed checks", r.Errors)
	}
	if r.Extra[result.K6ThresholdsFailed] != 1 {
		t.Errorf("a crossed threshold (true in --summary-export) must count as failed: %v", r.Extra)
	}
}

func TestParseK6SummaryRefusesWhatIsNotOne(t *testing.T) {
	for _, bad := range []string{`not json`, `{"metrics": {}}`, `{"metrics": {"iterations": {"values": {"count": 3}}}}`} {
		if _, err := ParseK6Summary([]byte(bad), "x"); err == nil {
			t.Errorf("%s: parsed without error", bad)
		}
	}
}

func TestK6MissingSaysWhereToGetIt(t *testing.T) {
	_, err := FindK6("/nonexistent/k6", "k6/00-ceilings.js")
	if err == nil {
		t.Fatal("a missing k6 was found")
	}
	for _, want := range []string{"github.com/grafana/k6/releases", "K6="} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the message does not say %q:\n%s", want, err)
		}
	}
}

// A summary written by a real k6 (v0.54.0, step 1's direct-db row through
// `make step-1 bench TOOL=k6`): the shape the parser was written against.
func TestParseARealK6Summary(t *testing.T) {
	b, err := os.ReadFile("testdata/k6-v0.54-handle-summary.json")
	if err != nil {
		t.Fatal(err)
	}
	r, err := ParseK6Summary(b, "direct_db")
	if err != nil {
		t.Fatal(err)
	}
	// The scenario's 1915, not the test's 1917 (the meter's two /metrics reads).
	if r.Requests != 1915 || r.Errors != 0 {
		t.Errorf("%d requests, %d errors; want 1915 and 0", r.Requests, r.Errors)
	}
	if math.Abs(r.Latency.P50-41.371318) > 1e-6 || math.Abs(r.Latency.P99-263.64781045999996) > 1e-6 {
		t.Errorf("latency %+v: want the scenario's med and p(99)", r.Latency)
	}
	if math.Abs(r.PerRequest.PublicBytes-3000446.0/1915) > 1e-6 {
		t.Errorf("%.1f bytes per request, want the scenario's data_received ÷ requests", r.PerRequest.PublicBytes)
	}
	if r.Extra[result.K6ThresholdsFailed] != 0 {
		t.Errorf("thresholds failed: %v (all passed in that run)", r.Extra)
	}
}
