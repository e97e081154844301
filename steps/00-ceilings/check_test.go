package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/given/server"
)

// The read ceiling is only comparable with the item read if it moves the
// same bytes: an item's size, from memory.
func TestTheEmptyReadMovesAnItemsBytes(t *testing.T) {
	srv := server.New("step 0 — ceilings")
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/empty", nil))
	if rec.Code != 200 || rec.Body.Len() != len(server.EmptyBody) || rec.Body.Len() < 1000 {
		t.Fatalf("GET /empty: status %d, %d bytes; want 200 and the %d bytes of an item", rec.Code, rec.Body.Len(), len(server.EmptyBody))
	}
}

// The write ceiling is only comparable with the write path if it parses
// as strictly: a valid event is accepted, a missing field or bad JSON is a 400.
func TestTheEmptyPostParsesAsTheWritePathDoes(t *testing.T) {
	srv := server.New("step 0 — ceilings")
	for body, code := range map[string]int{
		`{"event_name":"click","data":{"button":"buy"},"timestamp":1632404556}`: 200,
		`{"event_name":"click","data":{"button":"buy"}}`:                        400,
		`not json`: 400,
	} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, "/empty", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		srv.ServeHTTP(rec, req)
		if rec.Code != code {
			t.Errorf("POST /empty %s: %d, want %d", body, rec.Code, code)
		}
	}
}
