package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/peakload/workshop/internal/endpoints"
	"github.com/peakload/workshop/internal/metrics"
	"github.com/peakload/workshop/internal/params"
	"github.com/peakload/workshop/internal/server"
	"github.com/peakload/workshop/internal/stacktest"
)

// tableRows names the functions of the table's three rows: yours must not
// hand its work to them, nor route with the framework of one of them.
var tableRows = []struct{ fn, pkg, row string }{
	{"serveEcho", "github.com/labstack/echo", "echo (echo.go)"},
	{"serveNetHTTP", "net/http.(*ServeMux)", "net/http's ServeMux (nethttp.go)"},
	{"serveFastHTTP", "github.com/valyala/fasthttp", "fasthttp (fasthttp.go)"},
}

// Yours is a fourth row, not a second copy of one of the three: while it
// serves a request (a body still arriving), no goroutine of the server
// runs serveEcho, serveNetHTTP or serveFastHTTP, and the request is not
// routed by echo, net/http's ServeMux or bare fasthttp.
func TestYoursIsAFrameworkOfItsOwn(t *testing.T) {
	before := goroutines()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(t.Context())
	done, finished := make(chan error, 1), make(chan struct{})
	go func() {
		defer close(finished)
		err := serveYours(ctx, ln, &endpoints.App{Name: "yours"}) // no database: /validate needs none
		ln.Close()
		done <- err
	}()
	defer func() {
		stop()
		select {
		case <-finished:
		case <-time.After(10 * time.Second):
			t.Errorf("serveYours did not return within 10 s of its context ending: shut down when ctx is done (endpoints.ServeUntil)")
		}
	}()
	base := "http://" + ln.Addr().String()
	if err := waitUp(base, done); err != nil {
		t.Fatalf("yours does not serve: %v", err)
	}
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := string(params.Load().Event)
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
		endpoints.ValidatePath, len(body), body[:len(body)/2])
	time.Sleep(200 * time.Millisecond) // the server is now reading the rest of the body
	var stacks []string
	for id, stack := range goroutines() {
		if _, old := before[id]; !old {
			stacks = append(stacks, stack)
		}
	}
	all := strings.Join(stacks, "\n")
	for _, r := range tableRows {
		if strings.Contains(all, "."+r.fn+"(") || strings.Contains(all, "."+r.fn+".func") {
			t.Fatalf("serveYours runs %s: that is the %s row already in the table. "+
				"Serve app with a framework the table lacks — chi, gin, gorilla/mux, fiber, hertz… (make step-9 hint)", r.fn, r.row)
		}
	}
	thirdParty := map[string]bool{}
	for _, line := range strings.Split(all, "\n") {
		fn, _, _ := strings.Cut(strings.TrimPrefix(line, "created by "), "(")
		if !strings.HasPrefix(fn, "github.com/") || strings.HasPrefix(fn, "github.com/peakload/") {
			continue
		}
		if parts := strings.SplitN(fn, "/", 4); len(parts) >= 3 {
			repo, _, _ := strings.Cut(parts[2], ".") // github.com/owner/repo, without .Func
			thirdParty[parts[0]+"/"+parts[1]+"/"+repo] = true
		}
	}
	for _, r := range tableRows {
		router := strings.Contains(all, r.pkg)
		if r.pkg == "github.com/valyala/fasthttp" { // fiber and hertz run on fasthttp: only bare fasthttp is the same row
			router = router && len(thirdParty) == 1
		}
		if router {
			t.Fatalf("yours routes its requests with %s, a row the table already has. "+
				"Serve app with a framework the table lacks — chi, gin, gorilla/mux, fiber, hertz… (make step-9 hint)", r.row)
		}
	}
	_, _ = conn.Write([]byte(body[len(body)/2:]))
}

// goroutines returns the stack of every goroutine, by goroutine id.
func goroutines() map[string]string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	out := map[string]string{}
	for _, g := range strings.Split(string(buf), "\n\n") {
		if id, _, ok := strings.Cut(strings.TrimPrefix(g, "goroutine "), " "); ok {
			out[id] = g
		}
	}
	return out
}

// The contract of step 9: every framework — yours included — answers the
// same requests with the same statuses, bodies and JSON errors, reads
// PostgreSQL exactly once per item, and shuts down when asked. Only then
// does comparing their speed mean anything.
func TestEveryFrameworkKeepsTheContract(t *testing.T) {
	store := stacktest.Store(t)
	item, err := store.ItemJSON(t.Context(), 1)
	if err != nil {
		t.Fatal(err)
	}
	event := string(params.Load().Event)
	names := make([]string, 0, len(frameworks))
	for n := range frameworks {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			ctx, stop := context.WithCancel(t.Context())
			done := make(chan error, 1)
			go func() {
				err := frameworks[name](ctx, ln, &endpoints.App{Store: store, Name: name})
				ln.Close() // a framework that failed must not leave connections hanging
				done <- err
			}()
			base := "http://" + ln.Addr().String()
			if err := waitUp(base, done); err != nil {
				stop()
				t.Fatalf("%s does not serve: %v", name, err)
			}
			for _, c := range []struct {
				method, path, body string
				code               int
				want               string // the body, or a part of the JSON error
			}{
				{"GET", "/empty", "", 200, string(server.EmptyBody)},
				{"POST", "/validate", event, 200, `{"ok":true}`},
				{"POST", "/validate", `{"event_name":"click"`, 400, "error"},
				{"POST", "/validate", strings.Replace(event, `"timestamp"`, `"admin":true,"timestamp"`, 1), 400, "admin"},
				{"POST", "/validate", `{"event_name":"click","data":{},"timestamp":"yesterday"}`, 400, "timestamp"},
				{"POST", "/validate", `{"event_name":"` + strings.Repeat("x", 70_000) + `"}`, 413, "larger than"},
				{"GET", "/items/1", "", 200, string(item)},
				{"GET", "/items/abc", "", 400, "invalid item id"},
				{"GET", "/items/-4", "", 400, "invalid item id"},
				{"GET", "/items/999999999", "", 404, "not found"},
				{"GET", "/nope", "", 404, "no such route"},
				{"DELETE", "/empty", "", 405, "method not allowed"},
			} {
				code, ctype, body, err := do(c.method, base+c.path, c.body)
				if err != nil {
					t.Errorf("%s %s: %v", c.method, c.path, err)
					continue
				}
				var js any
				if code != c.code || !strings.Contains(body, c.want) || !strings.HasPrefix(ctype, "application/json") || json.Unmarshal([]byte(body), &js) != nil {
					t.Errorf("%s %s %.40s: %d %q %.120s, want %d application/json containing %.60q", c.method, c.path, c.body, code, ctype, body, c.code, c.want)
				}
			}
			before := testutil.ToFloat64(metrics.DBQueries)
			for id := 1; id <= 20; id++ {
				if code, _, _, err := do("GET", fmt.Sprintf("%s/items/%d", base, id), ""); err != nil || code != 200 {
					t.Fatalf("GET /items/%d: %d %v", id, code, err)
				}
			}
			if q := testutil.ToFloat64(metrics.DBQueries) - before; q != 20 {
				t.Errorf("20 item reads made %v database queries, want 20", q)
			}
			if code, _, body, _ := do("GET", base+"/metrics", ""); code != 200 || !strings.Contains(body, "process_cpu_seconds_total") {
				t.Errorf("GET /metrics: %d, no process_cpu_seconds_total (the bench reads the server's CPU there)", code)
			}
			stop()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("shutdown: %v", err)
				}
			case <-time.After(10 * time.Second):
				t.Errorf("%s did not return within 10 s of its context ending", name)
			}
		})
	}
}

func waitUp(base string, done <-chan error) error {
	for range 100 {
		select {
		case err := <-done:
			return fmt.Errorf("returned at once: %v", err)
		default:
		}
		if code, _, _, err := do("GET", base+"/healthz", ""); err == nil && code == 200 {
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return fmt.Errorf("/healthz never answered 200")
}

var client = &http.Client{Timeout: 10 * time.Second}

func do(method, url, body string) (int, string, string, error) {
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		return 0, "", "", err
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, "", "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(b), err
}
