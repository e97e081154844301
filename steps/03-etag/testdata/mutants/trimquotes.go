// trimquotes: splits correctly but strings.Trim drops the quotes: an unterminated "5d1e2a matches
// vi: tách đúng nhưng strings.Trim bỏ dấu ngoặc kép: "5d1e2a thiếu ngoặc đóng vẫn khớp

//go:build !solution

package main

import "strings"

func NotModified(ifNoneMatch, etag string) bool {
	want := strings.Trim(strings.TrimPrefix(etag, "W/"), `"`)
	s := strings.TrimSpace(ifNoneMatch)
	if s == "*" {
		return true
	}
	for s != "" {
		s = strings.TrimLeft(s, " \t,")
		s = strings.TrimPrefix(s, "W/")
		if !strings.HasPrefix(s, `"`) {
			return false
		}
		tag, rest, _ := strings.Cut(s[1:], `"`)
		if strings.Trim(tag, `"`) == want {
			return true
		}
		s = rest
	}
	return false
}
