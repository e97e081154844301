// Package probetest holds the bad targets make probe and make audit are
// tested against: small Go servers that refuse, fail, hang, lie about
// their tags or shed, each as a real listener on a free loopback port.
// Only tests import it.
package probetest

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// ClosedPort is the base URL of a loopback port nothing listens on.
func ClosedPort(t testing.TB) string {
	t.Helper()
	return "http://" + FreeAddr(t)
}

// FreeAddr is host:port of a loopback port nothing listens on: a listener
// opened to pick the port, then closed, for a server started afterwards.
func FreeAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// Serve starts h on a free port of 127.0.0.1 and returns its base URL.
func Serve(t testing.TB, h http.Handler) string {
	t.Helper()
	s := httptest.NewServer(h)
	t.Cleanup(s.Close)
	return s.URL
}

// ServeIPv6 starts h on a free port of [::1] and returns its base URL; it
// skips t on a machine without an IPv6 loopback.
func ServeIPv6(t testing.TB, h http.Handler) string {
	t.Helper()
	l, err := net.Listen("tcp", "[::1]:0")
	if err != nil {
		t.Skipf("no IPv6 loopback on this machine: %v", err)
	}
	s := httptest.NewUnstartedServer(h)
	s.Listener.Close()
	s.Listener = l
	s.Start()
	t.Cleanup(s.Close)
	return s.URL
}

// Status answers every request with code and a short body.
func Status(code int) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(code)
		fmt.Fprintf(w, "status %d\n", code)
	})
}

// Hang accepts connections and reads requests but never answers: a
// server whose every worker is stuck.
func Hang(t testing.TB) string {
	t.Helper()
	base, _ := HangCounting(t)
	return base
}

// HangCounting is Hang, with the count of connections it has accepted:
// how many requests a client sent before it gave up on the server.
func HangCounting(t testing.TB) (string, *atomic.Int64) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var accepted atomic.Int64
	done := make(chan struct{})
	t.Cleanup(func() { close(done); l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			go func() {
				defer c.Close()
				_, _ = c.Read(make([]byte, 4096))
				<-done
			}()
		}
	}()
	return "http://" + l.Addr().String(), &accepted
}

// AnyTag304 tags its one body with an ETag and answers 304 to any
// If-None-Match at all: the lie a tag check must catch.
func AnyTag304() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"v1"`)
		if r.Header.Get("If-None-Match") != "" {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"id":1}`)
	})
}

// Shedder serves at most n requests at once, each held by work; the
// others get 503 with Retry-After at once: load shedding at a fixed
// concurrency, as steps 4–6 teach it.
func Shedder(n int, work func()) http.Handler {
	slots := make(chan struct{}, n)
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		select {
		case slots <- struct{}{}:
			defer func() { <-slots }()
		default:
			w.Header().Set("Retry-After", "1")
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		work()
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"ok":true}`)
	})
}

// NotPrometheus answers a page that is not Prometheus text.
func NotPrometheus() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html><body>metrics live elsewhere</body></html>\n")
	})
}

// Metrics answers Prometheus text with the given counters.
func Metrics(counters map[string]float64) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		var b strings.Builder
		for k, v := range counters {
			fmt.Fprintf(&b, "# TYPE %s counter\n%s %g\n", k, k, v)
		}
		fmt.Fprint(w, b.String())
	})
}
