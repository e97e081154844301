//go:build !solution

package main

// NotModified reports whether an If-None-Match header value matches etag,
// so the server can answer 304 Not Modified with no body.
//
// TODO(step 3): implement RFC 9110 §13.1.2:
//   - "*" matches any current representation;
//   - otherwise the header is a comma-separated list of entity-tags, each
//     "opaque" or W/"opaque", with optional spaces around the commas;
//   - compare weakly: ignore W/ on both sides, compare the quoted parts;
//   - a malformed header matches nothing (the client gets a full 200).
//
// Until then every poll downloads the whole item, as in step 2.
func NotModified(ifNoneMatch, etag string) bool {
	return false
}
