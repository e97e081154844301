// Package etag is the reference for step 3 (article A3): a weak ETag on
// every item response and If-None-Match answered with 304 Not Modified, so
// a client polling every 15 s downloads the item only when it changed
// (about once a minute) — public bandwidth ÷ ~4.
package etag

import (
	"hash/fnv"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/peakload/workshop/internal/catalog"
	directdb "github.com/peakload/workshop/solutions/01-direct-db"
)

// CacheControl tells clients they may keep the response but must ask again
// (with If-None-Match) before using it: what a poller wants.
const CacheControl = "no-cache"

// Tag returns the weak entity-tag of a body: W/"<FNV-1a 64 in hex>".
// Weak, as the article's Express sets it: it promises the same content, not
// the same bytes (a re-encoding would not need a new download).
func Tag(body []byte) string {
	h := fnv.New64a()
	h.Write(body)
	return `W/"` + strconv.FormatUint(h.Sum64(), 16) + `"`
}

// NotModified reports whether an If-None-Match header value matches etag,
// as RFC 9110 §13.1.2 says: "*" matches any current representation;
// otherwise it is a comma-separated list of entity-tags, compared weakly
// (W/ ignored on both sides: only the quoted opaque parts are compared).
// A malformed header matches nothing, so the client gets the full response.
func NotModified(ifNoneMatch, etag string) bool {
	want := opaque(etag)
	s := ifNoneMatch
	for {
		for len(s) > 0 && (s[0] == ' ' || s[0] == '\t' || s[0] == ',') {
			s = s[1:]
		}
		if s == "" {
			return false
		}
		if s[0] == '*' {
			return true
		}
		if len(s) >= 2 && s[:2] == "W/" {
			s = s[2:]
		}
		if len(s) < 2 || s[0] != '"' {
			return false // malformed: match nothing
		}
		end := 1
		for end < len(s) && s[end] != '"' {
			end++
		}
		if end == len(s) {
			return false // unterminated
		}
		if s[1:end] == want {
			return true
		}
		s = s[end+1:]
	}
}

// opaque strips W/ and the quotes: W/"abc" → abc.
func opaque(tag string) string {
	if len(tag) >= 2 && tag[:2] == "W/" {
		tag = tag[2:]
	}
	if len(tag) >= 2 && tag[0] == '"' && tag[len(tag)-1] == '"' {
		return tag[1 : len(tag)-1]
	}
	return tag
}

// Serve is directdb.Serve with revalidation: every 200 carries ETag and
// Cache-Control; a request whose If-None-Match matches (per notModified)
// gets 304 with the same two headers and no body.
func Serve(get directdb.Getter, notModified func(ifNoneMatch, etag string) bool) echo.HandlerFunc {
	return func(c echo.Context) error {
		id, err := catalog.ParseID(c.Param("id"))
		if err != nil {
			return echo.NewHTTPError(http.StatusBadRequest, err.Error())
		}
		body, err := get(c.Request().Context(), id)
		if err != nil {
			return directdb.Error(err)
		}
		tag := Tag(body)
		h := c.Response().Header()
		h.Set("ETag", tag)
		h.Set("Cache-Control", CacheControl)
		if inm := c.Request().Header.Get("If-None-Match"); inm != "" && notModified(inm, tag) {
			return c.NoContent(http.StatusNotModified)
		}
		return c.JSONBlob(http.StatusOK, body)
	}
}
