package k6_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The shim is the grafana/k6 stand-in of make test-compose, whose k6
// service runs `k6 run --summary-export FILE script`: the shim must write
// FILE in the shape k6 writes for that flag (values at the top of each
// metric, a rate's as "value", thresholds as {condition: failed}), which
// the test reads, beside what handleSummary returns.
func TestShimWritesTheSummaryExport(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the shim cannot run")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("ok")) }))
	defer srv.Close()
	dir := t.TempDir()
	script := `import http from 'k6/http';
import { check } from 'k6';
export const options = {
  scenarios: { a: { executor: 'per-vu-iterations', vus: 2, iterations: 3, exec: 'a' } },
  thresholds: { 'http_reqs{scenario:a}': ['count>0'], http_req_failed: ['rate<0.01'] },
};
export function a() { check(http.get(__ENV.BASE_URL + '/'), { ok: (r) => r.status === 200 }); }
export function handleSummary() { return { stdout: '' }; }
`
	if err := os.WriteFile(filepath.Join(dir, "t.js"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	shim, _ := filepath.Abs("testdata/shim/k6.mjs")
	out := filepath.Join(dir, "export.json")
	cmd := exec.Command(node, shim, "run", "-e", "BASE_URL="+srv.URL, "--summary-export", out, filepath.Join(dir, "t.js"))
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("shim: %v\n%s", err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("no --summary-export file: %v", err)
	}
	var s struct {
		Metrics map[string]map[string]any `json:"metrics"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	m := s.Metrics
	if m["http_reqs"]["count"] != 6.0 || m["checks"]["passes"] != 6.0 || m["checks"]["fails"] != 0.0 || m["http_req_failed"]["value"] != 0.0 {
		t.Errorf("metrics %v: want 6 requests, 6 checks passed, 0 failed (k6's --summary-export shape)", m)
	}
	if th, _ := m["http_reqs{scenario:a}"]["thresholds"].(map[string]any); th["count>0"] != false {
		t.Errorf("http_reqs{scenario:a} thresholds %v: want {\"count>0\": false} (false: not failed)", th)
	}
}
