// nethttp: net/http's own reading (checkIfNoneMatch): a tag must hold etagc bytes, and reading stops at the first match, so what follows it is never read
// vi: cách net/http tự đọc (checkIfNoneMatch): tag phải gồm các byte etagc, và việc đọc dừng ở lần khớp đầu tiên, nên phần sau nó không bao giờ được đọc

//go:build !solution

package main

import "strings"

func NotModified(ifNoneMatch, etag string) bool {
	want := strings.TrimPrefix(etag, "W/")
	for s := ifNoneMatch; ; {
		s = strings.Trim(s, " \t")
		switch {
		case s == "":
			return false
		case s[0] == ',':
			s = s[1:]
			continue
		case s[0] == '*':
			return true
		}
		tag, rest := scanTag(s)
		if tag == "" {
			return false // malformed: match nothing
		}
		if strings.TrimPrefix(tag, "W/") == want {
			return true
		}
		s = rest
	}
}

// scanTag cuts one entity-tag, W/"…" or "…", off the front of s.
func scanTag(s string) (tag, rest string) {
	start := 0
	if strings.HasPrefix(s, "W/") {
		start = 2
	}
	if len(s) < start+2 || s[start] != '"' {
		return "", ""
	}
	for i := start + 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			return s[:i+1], s[i+1:]
		case c == 0x21 || c >= 0x23 && c <= 0x7e || c >= 0x80:
		default:
			return "", ""
		}
	}
	return "", ""
}
