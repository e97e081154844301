package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/catalog"
	"github.com/peakload/workshop/internal/stacktest"
)

// The property of step 3, header by header (RFC 9110 §13.1.2): weak
// comparison, a list, "*", and nothing for a malformed header.
func TestNotModified(t *testing.T) {
	const tag = `W/"5d1e2a"`
	for _, c := range []struct {
		name, inm, etag string
		want            bool
	}{
		{"the same weak tag", `W/"5d1e2a"`, tag, true},
		{"weak comparison: W/ ignored in the header", `"5d1e2a"`, tag, true},
		{"weak comparison: W/ ignored in the etag", `W/"5d1e2a"`, `"5d1e2a"`, true},
		{"star matches any current item", `*`, tag, true},
		{"in a list", `"other", W/"5d1e2a"`, tag, true},
		{"in a list with spaces around the commas", `"a","b" ,  W/"5d1e2a" , "c"`, tag, true},
		{"in a list with a tab (optional whitespace)", "\"a\",\tW/\"5d1e2a\"", tag, true},
		{"another tag", `"other"`, tag, false},
		{"a list of other tags", `"a", W/"b", "c"`, tag, false},
		{"a prefix of the tag", `W/"5d1e2"`, tag, false},
		{"the tag is a prefix of it", `"5d1e2ab"`, tag, false},
		{"the tag is a suffix of it", `"x5d1e2a"`, tag, false},
		{"opaque tags are case-sensitive", `"5D1E2A"`, tag, false},
		{"malformed: unquoted", `5d1e2a`, tag, false},
		{"malformed: unterminated", `"5d1e2a`, tag, false},
		{"malformed: lower-case w/", `w/"5d1e2a"`, tag, false},
		{"empty", ``, tag, false},
		{"a comma inside quotes is part of the tag", `W/"x,5d1e2a"`, tag, false},
		{"a comma inside quotes, then the tag", `"x,y", "5d1e2a"`, tag, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := NotModified(c.inm, c.etag); got != c.want {
				t.Errorf("NotModified(`%s`, `%s`) = %v, want %v", c.inm, c.etag, got, c.want)
			}
		})
	}
}

// BenchmarkNotModified is the hot path of a poll: one header scanned per
// request. Run it with `go test -run '^$' -bench NotModified ./steps/03-etag/`.
func BenchmarkNotModified(b *testing.B) {
	const inm, tag = `"a", W/"b", W/"5d1e2a"`, `W/"5d1e2a"`
	for b.Loop() {
		if !NotModified(inm, tag) {
			b.Fatal("no match")
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
	ctx := t.Context()
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
