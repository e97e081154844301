// Package conditional is the HTTP half of step 3 (article A3), given to the
// learner: a weak ETag on every item response, and 304 Not Modified with no
// body when the client's If-None-Match matches it — so a client polling
// every 15 s downloads the item only when it changed (about once a minute).
// Whether a header matches is the exercise (solutions/03-etag.NotModified);
// this package only computes the tag and writes the response.
package conditional

import (
	"hash/fnv"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/peakload/workshop/internal/given/server"
)

// CacheControl tells clients they may keep the response but must ask again
// (with If-None-Match) before using it: what a poller wants.
const CacheControl = "no-cache"

// Tag returns the weak entity-tag of a body: W/"<FNV-1a 64 in hex>".
// Weak, as article A turned it on in Fastify ({ weak: true }) and as Express
// sets it by default: it promises the same content, not the same bytes (a
// re-encoding would not need a new download).
func Tag(body []byte) string {
	h := fnv.New64a()
	h.Write(body)
	return `W/"` + strconv.FormatUint(h.Sum64(), 16) + `"`
}

// Serve is server.Serve with revalidation: every 200 carries ETag and
// Cache-Control; a request whose If-None-Match matches (per notModified)
// gets 304 with the same two headers and no body.
func Serve(get server.Getter, notModified func(ifNoneMatch, etag string) bool) echo.HandlerFunc {
	return func(c echo.Context) error {
		body, err := server.Read(c, get)
		if err != nil {
			return err
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
