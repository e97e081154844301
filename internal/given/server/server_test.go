package server

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/given/catalog"
)

func do(t *testing.T, s *Server, method, path, body string) *httptest.ResponseRecorder {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, path, r)
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	return rec
}

// jsonError asserts a 4xx whose body is {"error": "...<want>..."}.
func jsonError(t *testing.T, rec *httptest.ResponseRecorder, code int, want string) {
	t.Helper()
	if rec.Code != code {
		t.Fatalf("status %d, want %d (body %s)", rec.Code, code, rec.Body)
	}
	var e struct{ Error string }
	if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || !strings.Contains(e.Error, want) {
		t.Fatalf("body %q: want a JSON error mentioning %q", rec.Body, want)
	}
}

func TestEmptyGETIsAsBigAsAnItem(t *testing.T) {
	s := New("test")
	rec := do(t, s, "GET", "/empty", "")
	if rec.Code != 200 {
		t.Fatalf("GET /empty: %d", rec.Code)
	}
	item, _ := json.Marshal(catalog.Sample().Response())
	if rec.Body.Len() != len(item) || rec.Body.Len() < 1000 || rec.Body.Len() > 2048 {
		t.Fatalf("GET /empty body is %d bytes, want an item's size (%d, 1–2 KB)", rec.Body.Len(), len(item))
	}
}

func TestEmptyPOSTValidatesThePayload(t *testing.T) {
	s := New("test")
	if rec := do(t, s, "POST", "/empty", `{"event_name":"click","data":{"b":1},"timestamp":1632404556}`); rec.Code != 200 {
		t.Fatalf("valid event: %d %s", rec.Code, rec.Body)
	}
	jsonError(t, do(t, s, "POST", "/empty", `{"event_name":"click"`), 400, "body")
	jsonError(t, do(t, s, "POST", "/empty", `{"event_name":"click","data":{},"timestamp":1632404556,"x":1}`), 400, "x")
	jsonError(t, do(t, s, "POST", "/empty", `{"event_name":"click","data":"str","timestamp":1632404556}`), 400, "data")
	big := `{"event_name":"click","data":{"x":"` + strings.Repeat("a", 70<<10) + `"},"timestamp":1632404556}`
	jsonError(t, do(t, s, "POST", "/empty", big), http.StatusRequestEntityTooLarge, "larger than")
}

func TestErrorsAreJSON(t *testing.T) {
	s := New("test")
	jsonError(t, do(t, s, "GET", "/nope", ""), 404, "Not Found")
	jsonError(t, do(t, s, "DELETE", "/empty", ""), 405, "Method Not Allowed")
}

func TestMetricsCountResponses(t *testing.T) {
	s := New("test")
	do(t, s, "GET", "/empty", "")
	rec := do(t, s, "GET", "/metrics", "")
	for _, want := range []string{
		`peakload_http_requests_total{method="GET",route="/empty",status="200"}`,
		`peakload_http_response_bytes_total{method="GET",route="/empty",status="200"}`,
		"peakload_db_queries_total", "go_goroutines", "process_cpu_seconds_total",
	} {
		if !strings.Contains(rec.Body.String(), want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	if rec := do(t, s, "GET", "/debug/pprof/", ""); rec.Code != 200 {
		t.Errorf("/debug/pprof/: %d", rec.Code)
	}
}
