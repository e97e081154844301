// hasprefix: strings.HasPrefix on each tag: "5d1e2ab" matches 5d1e2a
// vi: strings.HasPrefix trên từng tag: "5d1e2ab" khớp với 5d1e2a

//go:build !solution

package main

import "strings"

func NotModified(ifNoneMatch, etag string) bool {
	want := strings.Trim(strings.TrimPrefix(etag, "W/"), `"`)
	s := ifNoneMatch
	for {
		s = strings.TrimLeft(s, " \t,")
		if s == "" {
			return false
		}
		if s[0] == '*' {
			return true
		}
		s = strings.TrimPrefix(s, "W/")
		if len(s) < 2 || s[0] != '"' {
			return false
		}
		tag, rest, ok := strings.Cut(s[1:], `"`)
		if !ok {
			return false
		}
		if strings.HasPrefix(tag, want) {
			return true
		}
		s = rest
	}
}
