package server

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
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
//	go test -run '^$' -bench Shell -count 10 ./internal/server | tee new.txt
//	go run golang.org/x/perf/cmd/benchstat@latest new.txt
func BenchmarkShell(b *testing.B) {
	for _, l := range []Layer{Bare, Guards, Full} {
		b.Run(l.String(), func(b *testing.B) {
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
	if _, err := ParseLayer("everything"); err == nil {
		t.Error("ParseLayer accepted an unknown layer")
	}
	if l, err := ParseLayer(""); err != nil || l != Full {
		t.Errorf(`ParseLayer("") = %v, %v; want full`, l, err)
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
