// noasterisk: forgets "*": a client asking "anything you have?" downloads the item again
// vi: quên "*": client gửi If-None-Match: * (bản nào cũng được) vẫn phải tải lại item

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
