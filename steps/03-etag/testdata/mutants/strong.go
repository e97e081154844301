// strong: compares strongly: W/"x" and "x" differ, so a client that dropped W/ never gets a 304
// vi: so kiểu strong: W/"x" và "x" khác nhau, nên client lỡ bỏ W/ không bao giờ nhận 304

//go:build !solution

package main

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
		weak := len(s) >= 2 && s[:2] == "W/"
		if weak {
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
		if s[1:end] == want && weak == (len(etag) >= 2 && etag[:2] == "W/") {
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
