package load

import (
	"fmt"
	"net"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/peakload/workshop/internal/harness/proc"
	"github.com/peakload/workshop/internal/harness/result"
)

// serve runs a tiny net/http server on a free loopback port.
func serve(t *testing.T, h http.Handler) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String()
}

func TestDriveCountsRequestsErrorsAndBytes(t *testing.T) {
	mux := http.NewServeMux()
	body := make([]byte, 1000)
	mux.HandleFunc("GET /ok/{n}", func(w http.ResponseWriter, r *http.Request) { w.Write(body) })
	mux.HandleFunc("GET /fail", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "boom", 500) })
	mux.HandleFunc("GET /metrics", func(w http.ResponseWriter, r *http.Request) {})
	target := serve(t, mux)
	o := Options{Target: target, VUs: 4, Duration: 300 * time.Millisecond, Warmup: 50 * time.Millisecond}

	// Prepare keeps per-user state: each user walks its own counter.
	ok := Variant{Name: "ok", Route: "GET /ok/{n}", Prepare: func(vu *VU, req *fasthttp.Request) {
		n, _ := vu.State.(int)
		vu.State = n + 1
		req.SetRequestURI("/ok/" + strconv.Itoa(n))
	}}
	r, err := Measure(t.Context(), o, ok, result.CPUPlan{}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if r.Requests < 10 || r.Errors != 0 || r.RPS <= 0 {
		t.Fatalf("ok run: %+v", r)
	}
	if r.PerRequest.PublicBytes < 1000 || r.PerRequest.PublicBytes > 1300 {
		t.Fatalf("public bytes/request %.0f, want the 1000-byte body plus headers", r.PerRequest.PublicBytes)
	}
	if r.Latency.P50 <= 0 || r.Latency.P99 < r.Latency.P50 {
		t.Fatalf("latency %+v", r.Latency)
	}
	f, err := Measure(t.Context(), o, Variant{Name: "fail", Route: "GET /fail", Path: "/fail"}, result.CPUPlan{}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if f.Errors != f.Requests || f.FirstError == "" {
		t.Fatalf("500s not counted as errors: %d of %d (%q)", f.Errors, f.Requests, f.FirstError)
	}
}

func TestIterationsStopsAtTheCount(t *testing.T) {
	target := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	r, err := Drive(t.Context(), Options{Target: target, VUs: 8, Iterations: 500}, Variant{Name: "n", Path: "/"}, func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	if r.Requests != 500 {
		t.Fatalf("%d requests, want exactly 500", r.Requests)
	}
}

func TestParseWrk(t *testing.T) {
	out := []byte("Running 2s test\n  1 threads and 200 connections\nPEAKLOAD requests=45000 errors=3 bytes=67500000 duration_us=2000000 p50=8000 p95=14000 p99=17000 max=30000 mean=8800.5\n")
	r, err := parseWrk(out)
	if err != nil {
		t.Fatal(err)
	}
	if r.Requests != 45000 || r.Errors != 3 || r.RPS != 22500 || r.PerRequest.PublicBytes != 1500 || r.Latency.P95 != 14 {
		t.Fatalf("parsed %+v", r)
	}
	if _, err := parseWrk([]byte("wrk: connection refused")); err == nil {
		t.Fatal("no summary accepted")
	}
}

func TestScrape(t *testing.T) {
	target := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("# HELP x y\npeakload_db_queries_total 42\npeakload_redis_commands_total{cmd=\"get\"} 5\npeakload_http_requests_total{method=\"GET\",route=\"/items/:id\",status=\"200\"} 7\npeakload_http_requests_total{method=\"GET\",route=\"/items/:id\",status=\"404\"} 3\n"))
	}))
	c, err := proc.Scrape(t.Context(), target)
	if err != nil {
		t.Fatal(err)
	}
	if c["peakload_db_queries_total"] != 42 || c["peakload_http_requests_total{route=/items/:id}"] != 10 || c["peakload_http_requests_total{status=404}"] != 3 ||
		c[`peakload_http_requests_total{method=GET,route=/items/:id,status=200}`] != 7 ||
		c["peakload_redis_commands_total{cmd=get}"] != 5 {
		t.Fatalf("scraped %v", c)
	}
}

// Only a refused connection makes a user back off; a timeout or a reset is
// an error counted at full speed.
func TestIsConnRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	_, refused := fasthttp.DialTimeout(addr, time.Second)
	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{"dial to a closed port", refused, true},
		{"a timeout", &net.OpError{Op: "read", Net: "tcp", Err: fmt.Errorf("i/o timeout")}, false},
		{"fasthttp's timeout", fasthttp.ErrTimeout, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := isConnRefused(tc.err); got != tc.want {
				t.Errorf("isConnRefused(%v) = %v, want %v", tc.err, got, tc.want)
			}
		})
	}
}

// Paced users start at phases spread over one period, as independent
// polling clients do: started together, every poll of every user would
// land in the same instant (step 3's stampede at each TTL expiry).
func TestPacedUsersStartSpreadOverOnePeriod(t *testing.T) {
	var mu sync.Mutex
	var first []time.Time // the first ten requests: one per user, in lockstep or not
	target := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		if len(first) < 10 {
			first = append(first, time.Now())
		}
		mu.Unlock()
	}))
	const pace = time.Second // long beside a loaded machine's scheduling delays
	o := Options{Target: target, VUs: 10, Duration: 3 * pace / 2, Warmup: 0}
	if _, err := Drive(t.Context(), o, Variant{Name: "poll", Path: "/", Pace: pace}, func(string) {}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(first) != 10 {
		t.Fatalf("%d requests seen, want at least 10", len(first))
	}
	slices.SortFunc(first, func(a, b time.Time) int { return a.Compare(b) })
	// Most of one period (0.9 s for ten users), and no more: spread over two
	// periods, users would sit idle into the window (the first ten requests
	// then take ~1.4 s, second polls among them).
	if spread := first[9].Sub(first[0]); spread < pace/2 || spread > 23*pace/20 {
		t.Fatalf("the users' first polls spread over %s, want most of one period (%s) and no more", spread, pace)
	}
}
