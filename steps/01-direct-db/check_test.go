package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/peakload/workshop/internal/given/catalog"
	"github.com/peakload/workshop/internal/given/metrics"
	"github.com/peakload/workshop/internal/harness/stacktest"
)

func get(t *testing.T, h http.Handler, path string) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	return rec
}

// The property of step 1: every request is exactly one database query,
// however often the same item is asked for.
func TestOneQueryPerRequest(t *testing.T) {
	store := stacktest.Store(t)
	srv := newServer(store)

	const n = 50
	before := testutil.ToFloat64(metrics.DBQueries)
	for i := range n {
		id := 4242 + i%5 // the same few items again and again
		rec := get(t, srv, fmt.Sprintf("/items/%d", id))
		if rec.Code != http.StatusOK {
			t.Fatalf("GET /items/%d: %d %s", id, rec.Code, rec.Body)
		}
		var item catalog.Item
		if err := json.Unmarshal(rec.Body.Bytes(), &item); err != nil || item.ID != int32(id) || item.Streamer.Handle == "" {
			t.Fatalf("GET /items/%d: bad body %.200s", id, rec.Body)
		}
	}
	if got := testutil.ToFloat64(metrics.DBQueries) - before; got != n {
		t.Fatalf("%d requests made %v DB queries, want exactly %d", n, got, n)
	}
}

func TestBadIDs(t *testing.T) {
	store := stacktest.Store(t)
	srv := newServer(store)
	for path, code := range map[string]int{
		"/items/abc": 400, "/items/0": 400, "/items/-3": 400, "/items/99999999999": 400,
		"/items/100001": 404, "/items/2147483647": 404,
	} {
		rec := get(t, srv, path)
		var e struct{ Error string }
		if rec.Code != code || json.Unmarshal(rec.Body.Bytes(), &e) != nil || e.Error == "" {
			t.Errorf("GET %s: %d %s, want %d with a JSON error", path, rec.Code, rec.Body, code)
		}
	}
}
