// starcontains: any * in the header is the wildcard: "a*" and "*" (tags like any other) match every item
// vi: dấu * ở đâu trong header cũng bị coi là wildcard: "a*" và "*" (vốn chỉ là tag bình thường) khớp với mọi item

//go:build !solution

package main

import "strings"

func NotModified(ifNoneMatch, etag string) bool {
	if strings.Contains(ifNoneMatch, "*") {
		return true
	}
	want := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(etag, "W/"), `"`), `"`)
	s := ifNoneMatch
	for {
		s = strings.TrimLeft(s, " \t,")
		if s == "" {
			return false
		}
		s = strings.TrimPrefix(s, "W/")
		if s[0] != '"' {
			return false
		}
		tag, rest, ok := strings.Cut(s[1:], `"`)
		if !ok {
			return false
		}
		if tag == want {
			return true
		}
		s = rest
	}
}
