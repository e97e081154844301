package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/peakload/workshop/internal/given/endpoints"
	"github.com/peakload/workshop/internal/given/metrics"
	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/given/server"
	"github.com/peakload/workshop/internal/harness/stacktest"
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
	s := serve(t, "yours", &endpoints.App{Name: "yours"}, 1) // no database: /validate needs none
	c, rest := inFlight(t, s)
	// The server now waits for the rest of the body, inside its own code.
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
	_, _ = io.WriteString(c, rest)
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
// PostgreSQL exactly once per item, and keeps the shell's promises
// (shell_test.go). Only then does comparing their speed mean anything.

// answer is one request and what every framework must answer to it.
type answer struct {
	method, path, body string
	code               int
	want               string // the body, or a part of the JSON error
}

// check sends each request and reports every answer that differs.
func check(t *testing.T, s *served, answers []answer) {
	t.Helper()
	for _, a := range answers {
		code, ctype, body, err := s.do(a.method, a.path, a.body)
		if err != nil {
			t.Errorf("%s %s %.40q: %v", a.method, a.path, a.body, err)
			continue
		}
		var js any
		if code != a.code || !strings.Contains(body, a.want) || !strings.HasPrefix(ctype, "application/json") || json.Unmarshal([]byte(body), &js) != nil {
			t.Errorf("%s %s %.40q: %d %q %.120s; want %d application/json containing %.60q",
				a.method, a.path, a.body, code, ctype, body, a.code, a.want)
		}
	}
}

func TestEachRouteAnswersItsBody(t *testing.T) {
	event := string(params.Load().Event)
	eachFramework(t, true, func(t *testing.T, name string) {
		s := serve(t, name, &endpoints.App{Name: name}, 1)
		check(t, s, []answer{
			{"GET", endpoints.EmptyPath, "", 200, string(server.EmptyBody)},
			{"POST", endpoints.ValidatePath, event, 200, `{"ok":true}`},
			{"GET", endpoints.HealthPath, "", 200, `"step 9 — ` + name + `"`},
		})
		code, _, body, err := s.do("GET", endpoints.MetricsPath, "")
		for _, series := range []string{"process_cpu_seconds_total", "peakload_http_requests_total"} {
			if code != 200 || !strings.Contains(body, "\n"+series) {
				t.Errorf("GET /metrics: %d %v, no %s in %.80q: the bench reads the server's CPU and its answers there (endpoints.Metrics)", code, err, series, body)
			}
		}
	})
}

func TestBadInputIsA400NamingTheProblem(t *testing.T) {
	event := string(params.Load().Event)
	eachFramework(t, true, func(t *testing.T, name string) {
		s := serve(t, name, &endpoints.App{Name: name}, 1)
		check(t, s, []answer{
			{"POST", endpoints.ValidatePath, `{"event_name":"click"`, 400, "error"},
			{"POST", endpoints.ValidatePath, `not json`, 400, "error"},
			{"POST", endpoints.ValidatePath, "", 400, "error"},
			{"POST", endpoints.ValidatePath, event + `{}`, 400, "body"},
			{"POST", endpoints.ValidatePath, strings.Replace(event, `"timestamp"`, `"admin":true,"timestamp"`, 1), 400, "admin"},
			{"POST", endpoints.ValidatePath, `{"event_name":"click","data":{},"timestamp":"yesterday"}`, 400, "timestamp"},
			{"POST", endpoints.ValidatePath, `{"event_name":"click","data":{},"timestamp":1}`, 400, "timestamp"},
			{"POST", endpoints.ValidatePath, `{"event_name":"a b","data":{},"timestamp":1700000000}`, 400, "event_name"},
			{"GET", endpoints.ItemsPrefix + "abc", "", 400, "invalid item id"},
			{"GET", endpoints.ItemsPrefix + "-4", "", 400, "invalid item id"},
		})
	})
}

func TestUnknownRoutesAndMethodsAreJSON404And405(t *testing.T) {
	eachFramework(t, true, func(t *testing.T, name string) {
		s := serve(t, name, &endpoints.App{Name: name}, 1)
		check(t, s, []answer{
			{"GET", "/nope", "", 404, "no such route"},
			{"POST", "/nope/deeper", "{}", 404, "no such route"},
			{"DELETE", endpoints.EmptyPath, "", 405, "method not allowed"},
			{"GET", endpoints.ValidatePath, "", 405, "method not allowed"},
			{"PUT", endpoints.ItemsPrefix + "1", "{}", 405, "method not allowed"},
		})
	})
}

// Many clients at once each get the answer to their own request: no
// framework may share a request's or a response's bytes between requests.
// First a few bodies are read at the same time, every run (see
// bodiesReadTogether); then 8 clients send 8 requests each.
func TestConcurrentRequestsGetTheirOwnAnswers(t *testing.T) {
	event := string(params.Load().Event)
	eachFramework(t, true, func(t *testing.T, name string) {
		s := serve(t, name, &endpoints.App{Name: name}, 1)
		bodiesReadTogether(t, s, event, 4)
		var mu sync.Mutex
		var wrong []string
		var wg sync.WaitGroup
		const clients, each = 8, 8
		for g := range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range each {
					field := fmt.Sprintf("f%dx%dz", g, i)
					body, want := event, `{"ok":true}`
					if i%2 == 1 {
						body = strings.Replace(event, `"timestamp"`, `"`+field+`":1,"timestamp"`, 1)
						want = field // its own field, not another request's
					}
					code, _, out, err := s.do("POST", endpoints.ValidatePath, body)
					if err != nil || !strings.Contains(out, want) || (i%2 == 0) != (code == 200) {
						mu.Lock()
						wrong = append(wrong, fmt.Sprintf("%s: %d %.80s %v", field, code, out, err))
						mu.Unlock()
					}
				}
			}()
		}
		wg.Wait()
		if len(wrong) > 0 {
			t.Errorf("%d clients × %d requests at once (half naming an unknown field of their own): %d of %d answers were not their own request's, e.g. %s",
				clients, each, len(wrong), clients*each, wrong[0])
		}
	})
}

// bodiesReadTogether sends n POST /validate, each naming an unknown field
// of its own, in two halves: every request's headers and first half, then
// — only once the server has read all n first halves and waits for more —
// the second halves. The n bodies are then being read at the same time
// whatever the scheduling, so a buffer shared by the requests holds bytes
// of several of them in every run, not only in an unlucky one.
func bodiesReadTogether(t *testing.T, s *served, event string, n int) {
	t.Helper()
	conns, fields, rest := make([]net.Conn, n), make([]string, n), make([]string, n)
	for i := range n {
		// The field first: in the first half, which each request sends
		// while the others' bodies are being read too.
		fields[i] = fmt.Sprintf("half%dx", i)
		body := `{"` + fields[i] + `":1,` + strings.TrimPrefix(event, "{")
		raw := post(endpoints.ValidatePath, body)
		cut := len(raw) - len(body)/2
		conns[i], rest[i] = s.dial(t), raw[cut:]
		_ = conns[i].SetDeadline(time.Now().Add(patience))
		if _, err := io.WriteString(conns[i], raw[:cut]); err != nil {
			t.Fatal(err)
		}
		s.ln.conn(t, conns[i]).awaitReading(t, cut)
	}
	for i, c := range conns {
		if _, err := io.WriteString(c, rest[i]); err != nil {
			t.Fatal(err)
		}
	}
	var wrong []string
	for i, c := range conns {
		resp, out, err := readResponse(bufio.NewReader(c))
		if err != nil || resp.StatusCode != 400 || !strings.Contains(out, fields[i]) {
			code := 0
			if resp != nil {
				code = resp.StatusCode
			}
			wrong = append(wrong, fmt.Sprintf("request %d (naming %q) got %d %.80s %v", i+1, fields[i], code, out, err))
		}
	}
	if len(wrong) > 0 {
		t.Errorf("%d POST %s whose bodies the server read at the same time (each sent half its body; the other halves only once "+
			"the server had read every first half), each naming an unknown field of its own: %d of %d answers were not a 400 naming "+
			"that request's field: %s. Each request's body must be read into bytes of its own",
			n, endpoints.ValidatePath, len(wrong), n, strings.Join(wrong, "; "))
	}
}

func TestItemsAreReadFromPostgreSQL(t *testing.T) {
	store := stacktest.Store(t)
	item, err := store.ItemJSON(t.Context(), 1)
	if err != nil {
		t.Fatal(err)
	}
	eachFramework(t, true, func(t *testing.T, name string) {
		s := serve(t, name, &endpoints.App{Store: store, Name: name}, 1)
		check(t, s, []answer{
			{"GET", endpoints.ItemsPrefix + "1", "", 200, string(item)},
			{"GET", endpoints.ItemsPrefix + "999999999", "", 404, "not found"},
		})
	})
}

// Items read at once, each a different id: each answer is its own item,
// and each read is one query (metrics.DBQueries, shared: one framework at
// a time).
func TestEachItemReadIsOneQuery(t *testing.T) {
	store := stacktest.Store(t)
	const n = 20
	items := make([]string, n+1)
	for id := 1; id <= n; id++ {
		b, err := store.ItemJSON(t.Context(), int32(id))
		if err != nil {
			t.Fatal(err)
		}
		items[id] = string(b)
	}
	eachFramework(t, false, func(t *testing.T, name string) {
		s := serve(t, name, &endpoints.App{Store: store, Name: name}, 1)
		before := testutil.ToFloat64(metrics.DBQueries)
		errs := make([]string, n+1)
		var wg sync.WaitGroup
		for id := 1; id <= n; id++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				code, _, body, err := s.do("GET", fmt.Sprintf("%s%d", endpoints.ItemsPrefix, id), "")
				if err != nil || code != 200 || body != items[id] {
					errs[id] = fmt.Sprintf("GET /items/%d: %d %.60q %v", id, code, body, err)
				}
			}()
		}
		wg.Wait()
		for _, e := range errs {
			if e != "" {
				t.Errorf("%d items read at once: %s; want each its own item, 200", n, e)
				return
			}
		}
		if q := testutil.ToFloat64(metrics.DBQueries) - before; q != n {
			t.Errorf("%d item reads made %v database queries, want %d", n, q, n)
		}
	})
}
