package probe

import (
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/peakload/workshop/internal/harness/probe/probetest"
)

// guard bounds "the probe ends at once": generous, for a shared machine.
const guard = 15 * time.Second

// probeOf runs a short probe of base+path and returns its error.
func probeOf(t *testing.T, base, path string, edit func(*Config)) error {
	t.Helper()
	tg, err := Resolve(t.Context(), base+path, false)
	if err != nil {
		t.Fatal(err)
	}
	c := Config{Target: tg, VUs: 4, Duration: 300 * time.Millisecond, Warmup: 100 * time.Millisecond, Rounds: 1}
	if edit != nil {
		edit(&c)
	}
	t0 := time.Now()
	_, err = Run(t.Context(), c)
	t.Logf("%s%s: after %s: %v", base, path, time.Since(t0).Round(time.Millisecond), err)
	if took := time.Since(t0); took > guard {
		t.Errorf("the probe took %s", took)
	}
	return err
}

// A target that refuses, fails or hangs is an error that says so, before
// any load: never a row of req/s.
func TestABadTargetIsAnErrorNotAFigure(t *testing.T) {
	for _, c := range []struct {
		name, base, want string
	}{
		{"refuses (a closed port)", probetest.ClosedPort(t), "first request"},
		{"answers 500", probetest.Serve(t, probetest.Status(500)), "HTTP 500"},
		{"answers 503", probetest.Serve(t, probetest.Status(503)), "HTTP 503"},
		{"answers 404", probetest.Serve(t, probetest.Status(404)), "HTTP 404"},
		{"hangs", probetest.Hang(t), "timeout"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := probeOf(t, c.base, "/items/1", nil)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "nothing was measured") {
				t.Errorf("want an error naming %q and saying nothing was measured, got %v", c.want, err)
			}
		})
	}
}

// A service that fails after its first answer gets a failed row: past
// MaxErrorShare, a req/s would measure the failure.
func TestARowOfErrorsFails(t *testing.T) {
	var n int
	base := probetest.Serve(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if n++; n > 1 { // the handler runs one request at a time per connection; a race only shifts the count
			w.WriteHeader(http.StatusInternalServerError)
		}
	}))
	err := probeOf(t, base, "/", func(c *Config) { c.VUs = 1 })
	if err == nil || !strings.Contains(err.Error(), "failed") || !strings.Contains(err.Error(), "no req/s") {
		t.Errorf("a row of 500s: want it failed, with no req/s, got %v", err)
	}
}

// METRICS that is not Prometheus text, and a PER_REQUEST pattern that
// matches none of its metrics, are errors before the load.
func TestMetricsAreCheckedBeforeTheLoad(t *testing.T) {
	var served atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("/items/", func(http.ResponseWriter, *http.Request) { served.Add(1) })
	mux.Handle("/html", probetest.NotPrometheus())
	mux.Handle("/metrics", probetest.Metrics(map[string]float64{"app_queries_total": 3}))
	base := probetest.Serve(t, mux)
	for _, c := range []struct{ metrics, per, want string }{
		{"/html", "", "not Prometheus text"},
		{"/metrics", "app_querys_total", "matches no metric"},
		{"/nowhere-404", "", "404"},
	} {
		served.Store(0)
		err := probeOf(t, base, "/items/1", func(cfg *Config) {
			cfg.MetricsURL, cfg.PerRequest = base+c.metrics, mustPer(t, c.per)
		})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("METRICS=%s PER_REQUEST=%s: want %q, got %v", c.metrics, c.per, c.want, err)
		}
		if n := served.Load(); n != 0 {
			t.Errorf("METRICS=%s PER_REQUEST=%s: %d requests sent before the error", c.metrics, c.per, n)
		}
	}
}

// Every address the loopback rule admits can be loaded: [::1] too.
func TestProbesIPv6Loopback(t *testing.T) {
	url := probetest.ServeIPv6(t, http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	if err := probeOf(t, url, "/", nil); err != nil {
		t.Errorf("%s: %v", url, err)
	}
}

// A URL the probe cannot use is refused with what to write instead.
func TestResolveSaysWhatIsWrong(t *testing.T) {
	for u, want := range map[string]string{
		"http://:18081/":     "no host",
		"htp://127.0.0.1/":   `scheme "htp"`,
		"https://127.0.0.1/": "TLS",
		"http://192.0.2.1/":  "ALLOW_REMOTE=1",
	} {
		if _, err := Resolve(t.Context(), u, false); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: want %q, got %v", u, want, err)
		}
	}
}

// Two rows of one route are told apart by what differs: the header, not "#2".
func TestTwinRowsAreNamedByTheirHeaders(t *testing.T) {
	c := Config{Target: Target{Base: "http://127.0.0.1:1", Host: "127.0.0.1:1", Path: "/"}, Requests: []Request{
		{Method: "GET", Path: "/items/1"},
		{Method: "GET", Path: "/items/1", Headers: map[string]string{"If-None-Match": `"v1"`}},
		{Method: "GET", Path: "/items/2"},
	}}
	var names []string
	for _, v := range c.Variants() {
		names = append(names, string(v.Name))
	}
	if names[0] != "GET /items/1" || names[1] != `GET /items/1 (If-None-Match: "v1")` || names[2] != "GET /items/2" {
		t.Errorf("rows named %q", names)
	}
}

// Debian's nginx: a file it serves is probed; a path it answers 404 is an
// error before any load.
func TestProbeNginx(t *testing.T) {
	base := probetest.Nginx(t, map[string]string{"items/1.json": `{"id":1}`}, "")
	if err := probeOf(t, base, "/items/1.json", nil); err != nil {
		t.Errorf("a static file: %v", err)
	}
	if err := probeOf(t, base, "/items/2.json", nil); err == nil || !strings.Contains(err.Error(), "HTTP 404") {
		t.Errorf("a missing file: want the 404 said before any load, got %v", err)
	}
}
