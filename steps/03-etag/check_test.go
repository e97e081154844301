package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/catalog"
	"github.com/peakload/workshop/internal/stacktest"
)

func TestNotModified(t *testing.T) {
	const tag = `W/"5d1e2a"`
	for inm, want := range map[string]bool{
		`W/"5d1e2a"`:                  true,
		`"5d1e2a"`:                    true, // weak comparison: W/ ignored
		`*`:                           true,
		`"other", W/"5d1e2a"`:         true,
		`"a","b" ,  W/"5d1e2a" , "c"`: true,
		`"other"`:                     false,
		`W/"5d1e2"`:                   false,
		`5d1e2a`:                      false, // unquoted: malformed
		`"5d1e2a`:                     false, // unterminated
		``:                            false,
		`W/"x,5d1e2a"`:                false, // a comma inside quotes is part of the tag
	} {
		if got := NotModified(inm, tag); got != want {
			t.Errorf("NotModified(%q, %q) = %v, want %v", inm, tag, got, want)
		}
	}
}

func poll(t *testing.T, h http.Handler, path, inm string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	if inm != "" {
		req.Header.Set("If-None-Match", inm)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// The property of step 3: a poll with the current ETag gets 304, no body,
// and the validators; a change of the data gets a 200 with a new ETag.
func TestPollingGets304UntilTheDataChanges(t *testing.T) {
	store, rdb := stacktest.Store(t), stacktest.Redis(t)
	srv := newServer(store, rdb)
	const id, path = 4242, "/etag/items/4242"
	ctx := context.Background()
	rdb.Del(ctx, catalog.ItemKey(id))

	first := poll(t, srv, path, "")
	tag := first.Header().Get("ETag")
	if first.Code != 200 || !strings.HasPrefix(tag, `W/"`) || first.Header().Get("Cache-Control") == "" {
		t.Fatalf("first poll: %d, ETag %q, Cache-Control %q; want 200 with a weak ETag and Cache-Control",
			first.Code, tag, first.Header().Get("Cache-Control"))
	}
	again := poll(t, srv, path, tag)
	if again.Code != http.StatusNotModified || again.Body.Len() != 0 {
		t.Fatalf("poll with the current ETag: %d with %d body bytes, want 304 and none", again.Code, again.Body.Len())
	}
	if again.Header().Get("ETag") != tag || again.Header().Get("Cache-Control") == "" {
		t.Fatalf("304 without its validators: ETag %q, Cache-Control %q", again.Header().Get("ETag"), again.Header().Get("Cache-Control"))
	}
	if rec := poll(t, srv, path, `"stale", `+tag); rec.Code != http.StatusNotModified {
		t.Fatalf("a list containing the ETag: %d, want 304", rec.Code)
	}
	if rec := poll(t, srv, path, `W/"stale"`); rec.Code != 200 || rec.Body.Len() == 0 {
		t.Fatalf("a stale ETag: %d, want 200 with the body", rec.Code)
	}

	// The worker changes the stream; the cached copy is refreshed.
	if err := catalog.UpdateStats(ctx, store.Pool, []int32{id}); err != nil {
		t.Fatal(err)
	}
	rdb.Del(ctx, catalog.ItemKey(id))
	changed := poll(t, srv, path, tag)
	if changed.Code != 200 || changed.Header().Get("ETag") == tag {
		t.Fatalf("after a change: %d, ETag %q (was %q); want 200 and a new ETag", changed.Code, changed.Header().Get("ETag"), tag)
	}
	if rec := poll(t, srv, "/etag/items/100001", ""); rec.Code != 404 {
		t.Fatalf("unknown id: %d, want 404", rec.Code)
	}
}
