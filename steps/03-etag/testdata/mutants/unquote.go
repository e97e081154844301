// unquote: reads each tag with strconv.Unquote, Go's quoting: "\x35d1e2a" becomes 5d1e2a and matches, and "a\", "5d1e2a" is one tag
// vi: đọc từng tag bằng strconv.Unquote, cách quote của Go: "\x35d1e2a" thành 5d1e2a và khớp, còn "a\", "5d1e2a" thành một tag

//go:build !solution

package main

import (
	"strconv"
	"strings"
)

func NotModified(ifNoneMatch, etag string) bool {
	want := strings.TrimPrefix(etag, "W/")
	if w, err := strconv.Unquote(want); err == nil {
		want = w
	}
	s := strings.TrimSpace(ifNoneMatch)
	if s == "*" {
		return true
	}
	for {
		s = strings.TrimLeft(s, " \t,")
		if s == "" {
			return false
		}
		s = strings.TrimPrefix(s, "W/")
		if s[0] != '"' {
			return false
		}
		// The closing quote is the first one no backslash escapes.
		end := 1
		for end < len(s) && s[end] != '"' {
			if s[end] == '\\' {
				end++
			}
			end++
		}
		if end >= len(s) {
			return false
		}
		tag, err := strconv.Unquote(s[:end+1])
		if err != nil {
			return false
		}
		if tag == want {
			return true
		}
		s = s[end+1:]
	}
}
