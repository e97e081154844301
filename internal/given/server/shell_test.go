package server

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"

	"github.com/labstack/echo/v4"
)

// discard is a ResponseWriter that keeps nothing, so the benchmark weighs
// the shell and not a recorder's buffer.
type discard struct{ h http.Header }

func (w *discard) Header() http.Header         { return w.h }
func (w *discard) Write(b []byte) (int, error) { return len(b), nil }
func (w *discard) WriteHeader(int)             {}

// BenchmarkShell serves GET /empty through each layer of the shell, from
// bare echo to the full shell every step serves: what each layer adds per
// request, in ns and allocations. The timeouts layer works in net/http's
// connection loop (a deadline set per request), which a handler benchmark
// does not run: its price shows in step 0's load rows only.
//
//	go test -run '^$' -bench Shell -cpu 1 -count 10 ./internal/given/server > shell.txt
//	go run golang.org/x/perf/cmd/benchstat@latest -col /layer shell.txt
func BenchmarkShell(b *testing.B) {
	for _, l := range []Layer{Bare, Guards, Full} {
		b.Run("layer="+l.String(), func(b *testing.B) {
			s := NewLayered("bench", l)
			req := httptest.NewRequest(http.MethodGet, "/empty", nil)
			w := &discard{h: http.Header{}}
			b.ReportAllocs()
			for b.Loop() {
				clear(w.h)
				s.ServeHTTP(w, req)
			}
		})
	}
}

// BenchmarkShellLoopback serves GET /empty over a real kept-alive loopback
// connection, so net/http's connection loop runs too and the timeouts'
// deadlines show. Client and server share the process, and the client's
// cost is the same for every layer: compare the layers' differences, not
// their totals. cpu-ns/op is the process's CPU time (user + system) per
// request, which a neighbour taking the CPU away moves less than ns/op.
func BenchmarkShellLoopback(b *testing.B) {
	for _, l := range []Layer{Bare, Timeouts, Guards, Full} {
		b.Run("layer="+l.String(), func(b *testing.B) {
			s := NewLayered("bench", l)
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				b.Fatal(err)
			}
			s.Server.Handler = s.Echo
			go s.Server.Serve(ln)
			defer s.Server.Close()
			conn, err := net.Dial("tcp", ln.Addr().String())
			if err != nil {
				b.Fatal(err)
			}
			defer conn.Close()
			r := bufio.NewReader(conn)
			get := []byte("GET /empty HTTP/1.1\r\nHost: bench\r\n\r\n")
			b.ReportAllocs()
			cpu0 := cpuTime()
			for b.Loop() {
				if _, err := conn.Write(get); err != nil {
					b.Fatal(err)
				}
				resp, err := http.ReadResponse(r, nil)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := io.Copy(io.Discard, resp.Body); err != nil || resp.StatusCode != 200 {
					b.Fatal(resp.Status, err)
				}
				resp.Body.Close()
			}
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}

// cpuTime is the process's CPU time so far, user and system, in ns.
func cpuTime() int64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// Each layer adds what it says: timeouts from Timeouts on, the body limit
// from Guards on (below it, an oversized body is read and accepted).
func TestLayers(t *testing.T) {
	for _, tc := range []struct {
		l        Layer
		timeouts bool
		limited  bool
	}{{Bare, false, false}, {Timeouts, true, false}, {Guards, true, true}, {Full, true, true}} {
		t.Run(tc.l.String(), func(t *testing.T) {
			s := NewLayered("test", tc.l)
			if got := s.Server.ReadHeaderTimeout != 0; got != tc.timeouts {
				t.Errorf("timeouts set: %v, want %v", got, tc.timeouts)
			}
			big := `{"event_name":"click","data":{"x":"` + strings.Repeat("a", BodyLimit) + `"},"timestamp":1632404556}`
			code := do(t, s, "POST", "/empty", big).Code
			if limited := code == http.StatusRequestEntityTooLarge; limited != tc.limited {
				t.Errorf("oversized body: %d, limited %v, want %v", code, limited, tc.limited)
			}
		})
	}
}

// A body without a Content-Length (chunked) is capped while it is read.
func TestBodyLimitWithoutContentLength(t *testing.T) {
	s := New("test")
	big := `{"event_name":"click","data":{"x":"` + strings.Repeat("a", BodyLimit) + `"},"timestamp":1632404556}`
	req := httptest.NewRequest("POST", "/empty", strings.NewReader(big))
	req.ContentLength = -1
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	jsonError(t, rec, http.StatusRequestEntityTooLarge, "larger than")
}

// A panicking handler is a 500 JSON error, counted, and the server lives on.
func TestPanicIsA500(t *testing.T) {
	s := New("test")
	s.Logger.SetOutput(io.Discard) // the stack trace it logs is expected here
	s.GET("/boom", func(echo.Context) error { panic("boom") })
	jsonError(t, do(t, s, "GET", "/boom", ""), http.StatusInternalServerError, "internal server error")
	if rec := do(t, s, "GET", "/empty", ""); rec.Code != 200 {
		t.Fatalf("after a panic, GET /empty: %d", rec.Code)
	}
	want := `peakload_http_requests_total{method="GET",route="/boom",status="500"} 1`
	if m := do(t, s, "GET", "/metrics", "").Body.String(); !strings.Contains(m, want) {
		t.Errorf("/metrics lacks %s", want)
	}
}

// The full shell allocates two objects per request more than bare echo:
// the closure echo builds for its one middleware, on every request, and the
// request's tally (metrics.WithRequestTally: the request copy, its context
// and its counts in one allocation). Counting resolves its series once, and
// a GET's body is not wrapped. Going back to WithLabelValues and strconv
// per request, to three middlewares, or to a tally in allocations of its
// own, fails here.
func TestShellAllocatesTwoObjectsPerRequest(t *testing.T) {
	allocs := func(l Layer) float64 {
		s := NewLayered("test", l)
		req := httptest.NewRequest(http.MethodGet, "/empty", nil)
		w := &discard{h: http.Header{}}
		return testing.AllocsPerRun(1000, func() {
			clear(w.h)
			s.ServeHTTP(w, req)
		})
	}
	bare, full := allocs(Bare), allocs(Full)
	if full > bare+2 {
		t.Errorf("GET /empty allocates %.0f objects through the full shell, %.0f bare: want at most two more", full, bare)
	}
}
