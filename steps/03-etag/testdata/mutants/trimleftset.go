// trimleftset: strings.TrimLeft(x, `W/"`) reads W/" as a set of bytes: W/W/"5d1e2a" and "W/5d1e2a" lose their extra W and / and match
// vi: strings.TrimLeft(x, `W/"`) đọc W/" như một tập byte: W/W/"5d1e2a" và "W/5d1e2a" mất chữ W và dấu / thừa rồi khớp

//go:build !solution

package main

import "strings"

func NotModified(ifNoneMatch, etag string) bool {
	want := strings.TrimRight(strings.TrimLeft(etag, `W/"`), `"`)
	s := strings.TrimSpace(ifNoneMatch)
	if s == "*" {
		return true
	}
	for s != "" {
		s = strings.TrimLeft(s, " \t,")
		if !strings.HasPrefix(s, `"`) && !strings.HasPrefix(s, `W/"`) {
			return false
		}
		// The end of the tag: the first quote after the opening one.
		open := strings.IndexByte(s, '"')
		end := strings.IndexByte(s[open+1:], '"')
		if end < 0 {
			return false
		}
		elem := s[:open+1+end+1]
		if strings.TrimRight(strings.TrimLeft(elem, `W/"`), `"`) == want {
			return true
		}
		s = s[len(elem):]
	}
	return false
}
