// starquoted: a tag whose opaque part is * counts as the wildcard: "*" is an entity-tag, not *, and matches only the tag "*"
// vi: coi tag có phần opaque là * như wildcard: "*" là một entity-tag chứ không phải *, và chỉ khớp với tag "*"

//go:build !solution

package main

import "strings"

func NotModified(ifNoneMatch, etag string) bool {
	want := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(etag, "W/"), `"`), `"`)
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
		tag, rest, ok := strings.Cut(s[1:], `"`)
		if !ok {
			return false
		}
		if tag == want || tag == "*" {
			return true
		}
		s = rest
	}
}
