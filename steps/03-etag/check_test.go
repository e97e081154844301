package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/given/catalog"
	"github.com/peakload/workshop/internal/harness/stacktest"
)

// The examples, one group per property of the lesson (RFC 9110 §13.1.2).
// Each is also a seed of FuzzIfNoneMatchAgreesWithRFC9110, and the model
// (rfc9110_test.go) must read each one as its group says.
type example struct {
	name, inm, etag string
	want            bool
}

type group struct {
	property string
	cases    []example
}

const tag = `W/"5d1e2a"`

func examples() map[string]group {
	return map[string]group{
		"star": {"* matches any current item; inside quotes it is a tag like any other", []example{
			{"star matches any current item", `*`, tag, true},
			{"star with spaces around it (trimmed from the field)", ` * `, tag, true},
			{"star and a strong tag", `*`, `"5d1e2a"`, true},
			{"a quoted star is a tag, not the wildcard", `"*"`, tag, false},
			{"a star inside a tag is a byte of the tag", `"5d1e2a*"`, tag, false},
			{"a star inside a tag, in a list", `"a*", "b"`, tag, false},
		}},
		"weak": {"W/ is ignored on both sides (weak comparison)", []example{
			{"the same weak tag", `W/"5d1e2a"`, tag, true},
			{"weak comparison: W/ ignored in the header", `"5d1e2a"`, tag, true},
			{"weak comparison: W/ ignored in the etag", `W/"5d1e2a"`, `"5d1e2a"`, true},
			{"two strong tags", `"5d1e2a"`, `"5d1e2a"`, true},
		}},
		"list": {"any tag of the list matches", []example{
			{"in a list", `"other", W/"5d1e2a"`, tag, true},
			{"first of a list", `W/"5d1e2a", "other"`, tag, true},
			{"in a list with spaces around the commas", `"a","b" ,  W/"5d1e2a" , "c"`, tag, true},
			{"in a list with a tab (optional whitespace)", "\"a\",\tW/\"5d1e2a\"", tag, true},
			{"empty list elements are ignored", `,, "a",,W/"5d1e2a",`, tag, true},
			{"a comma inside quotes, then the tag", `"x,y", "5d1e2a"`, tag, true},
			{"a backslash ends nothing: the next tag is read", `"a\", "5d1e2a"`, tag, true},
			{"bytes above 0x7f (obs-text) are tag bytes", "\"\x80\xff\", \"5d1e2a\"", tag, true},
			{"the 41st tag of a long list (the grammar has no limit)", strings.Repeat(`"old", `, 40) + `W/"5d1e2a"`, tag, true},
		}},
		"opaque": {"only the same opaque tag matches, byte for byte", []example{
			{"another tag", `"other"`, tag, false},
			{"a list of other tags", `"a", W/"b", "c"`, tag, false},
			{"a prefix of the tag", `W/"5d1e2"`, tag, false},
			{"the tag is a prefix of it", `"5d1e2ab"`, tag, false},
			{"the tag is a suffix of it", `"x5d1e2a"`, tag, false},
			{"opaque tags are case-sensitive", `"5D1E2A"`, tag, false},
			{"a comma inside quotes is part of the tag", `W/"x,5d1e2a"`, tag, false},
			{"W/ inside the quotes is part of the tag", `"W/5d1e2a"`, tag, false},
			{"a backslash is a byte, not an escape", `"\x35d1e2a"`, tag, false},
			{"a backslash before the closing quote is a byte", `"5d1e2a\"`, tag, false},
			{"an empty tag", `""`, tag, false},
		}},
		"malformed": {"a malformed header matches nothing", []example{
			{"malformed: unquoted", `5d1e2a`, tag, false},
			{"malformed: unterminated", `"5d1e2a`, tag, false},
			{"malformed: lower-case w/", `w/"5d1e2a"`, tag, false},
			{"malformed: W/ alone", `W/`, tag, false},
			{"malformed: W/ twice", `W/W/"5d1e2a"`, tag, false},
			{"malformed: a space after W/", `W/ "5d1e2a"`, tag, false},
			{"malformed: W without the slash", `W"5d1e2a"`, tag, false},
			{"malformed: W/ without the opening quote", `W/5d1e2a"`, tag, false},
			{"malformed: single quotes", `'5d1e2a'`, tag, false},
			{"empty", ``, tag, false},
			{"malformed element before the tag", `x, "5d1e2a"`, tag, false},
			{"bytes after a tag, before the comma", `"a"x, "5d1e2a"`, tag, false},
			{"an unquoted element before the tag", `other, W/"5d1e2a"`, tag, false},
		}},
	}
}

func checkGroup(t *testing.T, key string) {
	g := examples()[key]
	for _, c := range g.cases {
		t.Run(c.name, func(t *testing.T) {
			if v := chkStrict(c.inm, c.etag); v.match != c.want || chkLoose(c.inm, c.etag) != c.want {
				t.Fatalf("the check's own model reads `%s` as %s: fix the check", c.inm, v.why)
			}
			got, panicked := call(c.inm, c.etag)
			switch {
			case panicked != nil:
				t.Errorf("NotModified(%s, %s) panicked: %v; want %v: %s", show(c.inm), show(c.etag), panicked, c.want, g.property)
			case got != c.want:
				t.Errorf("NotModified(%s, %s) = %v, want %v: %s", show(c.inm), show(c.etag), got, c.want, g.property)
			}
		})
	}
}

func TestStarMatchesAnyItem(t *testing.T)                { checkGroup(t, "star") }
func TestWeakComparisonIgnoresWOnBothSides(t *testing.T) { checkGroup(t, "weak") }
func TestAnyTagOfTheListMatches(t *testing.T)            { checkGroup(t, "list") }
func TestOnlyTheSameOpaqueTagMatches(t *testing.T)       { checkGroup(t, "opaque") }
func TestAMalformedHeaderMatchesNothing(t *testing.T)    { checkGroup(t, "malformed") }

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
