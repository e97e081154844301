// Package etag is the reference for step 3 (article A3): If-None-Match
// answered weakly, so a client polling every 15 s with the ETag it holds gets
// 304 Not Modified until the item changes (about once a minute) — public
// bandwidth ÷ ~4. The tag and the 304 response are given (internal/given/conditional);
// matching the header is the exercise.
package etag

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
