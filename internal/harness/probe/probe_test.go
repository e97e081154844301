package probe

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/peakload/workshop/internal/harness/load"
	"github.com/peakload/workshop/internal/harness/proc"
	"github.com/peakload/workshop/internal/harness/result"
)

// counted is a service with Prometheus text of its own: one "query" per
// request, and a counter nobody asked for.
func counted() (*httptest.Server, *atomic.Int64) {
	var served atomic.Int64
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/metrics" {
			fmt.Fprintf(w, "# TYPE app_queries_total counter\napp_queries_total{db=\"main\"} %d\napp_other_total 7\n", 2*served.Load())
			return
		}
		served.Add(1)
		w.Write([]byte(`{"ok":true}`))
	})), &served
}

func TestProbeDividesTheServicesCountersByRequests(t *testing.T) {
	srv, _ := counted()
	defer srv.Close()
	tg, err := Resolve(t.Context(), srv.URL+"/items/1", false)
	if err != nil {
		t.Fatal(err)
	}
	per, err := ParsePerRequest("app_q.*_total")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(t.Context(), Config{Target: tg, VUs: 4, Duration: 300 * time.Millisecond, Rounds: 2,
		MetricsURL: srv.URL + "/metrics", PerRequest: per,
		Capacity: &load.CapacityConfig{P99Ms: 100, Probe: 200 * time.Millisecond, Brackets: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Runs) != 1 || len(res.Rounds) != 2 || res.Step != Step {
		t.Fatalf("%d rows, %d rounds, step %d: want 1 row of 2 rounds, step %d", len(res.Runs), len(res.Rounds), res.Step, Step)
	}
	r := res.Runs[0]
	// Requests in flight at the window's edges are counted by the service
	// and not by the probe, or the other way round: a few per hundred.
	if q := r.Extra[result.PerRequestOf("app_queries_total")]; q < 1.8 || q > 2.2 {
		t.Errorf("app_queries_total per request = %.3f, want 2 (the service counts two per request); extra: %v", q, r.Extra)
	}
	if _, ok := r.Extra[result.PerRequestOf("app_other_total")]; ok {
		t.Errorf("a counter the user did not name was divided: %v", r.Extra)
	}
	if r.ClientCPUus <= 0 {
		t.Errorf("the probe's own CPU per request was not measured: %v", r.ClientCPUus)
	}
	// Its client-busy column is of the CPUs it ran on, as its flag's.
	if plan := proc.PlanCPUs(false); plan.Pinned && !slices.Equal(res.Machine.CPUPlan.Driver, plan.Driver) {
		t.Errorf("the results file says the probe ran on CPUs %v; it was pinned to %v", res.Machine.CPUPlan.Driver, plan.Driver)
	}
	if len(res.Machine.CPUPlan.Server) != 0 {
		t.Errorf("the results file places the service on CPUs %v: a probe does not know them", res.Machine.CPUPlan.Server)
	}
	if len(res.Capacity) != 1 || len(res.Capacity[0].Probes) == 0 {
		t.Errorf("capacity search: %+v", res.Capacity)
	}
}

func TestProbeBounds(t *testing.T) {
	tg := Target{Base: "http://127.0.0.1:1", Host: "127.0.0.1:1", Path: "/"}
	for _, c := range []Config{
		{Target: tg, VUs: 0, Duration: time.Second, Rounds: 1},
		{Target: tg, VUs: 1, Duration: time.Hour, Rounds: 1},
		{Target: tg, VUs: 1, Duration: time.Second, Rounds: 100},
		{Target: tg, VUs: 1, Duration: time.Second, Rounds: 1, PerRequest: mustPer(t, "x")},
	} {
		if err := c.Validate(); err == nil {
			t.Errorf("accepted %+v", c)
		}
	}
	for _, u := range []string{"http://192.0.2.1/", "https://127.0.0.1/", "ftp://127.0.0.1/", "127.0.0.1:80"} {
		if _, err := Resolve(t.Context(), u, false); err == nil {
			t.Errorf("%s accepted", u)
		}
	}
}

func mustPer(t *testing.T, s string) []*regexp.Regexp {
	t.Helper()
	p, err := ParsePerRequest(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReadRequests(t *testing.T) {
	path := filepath.Join(t.TempDir(), "reqs")
	os.WriteFile(path, []byte("# the mix\n{\"method\":\"get\",\"path\":\"/items/1\"}\n\n{\"method\":\"POST\",\"path\":\"/events\",\"headers\":{\"Content-Type\":\"application/json\"},\"body\":\"{}\"}\n"), 0o644)
	rs, err := ReadRequests(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2 || rs[0].Name() != "GET /items/1" || rs[1].Body != "{}" {
		t.Errorf("read %+v", rs)
	}
	os.WriteFile(path, []byte("{\"path\":\"items\"}\n"), 0o644)
	if _, err := ReadRequests(path); err == nil {
		t.Error("a path without its leading / was accepted")
	}
}
