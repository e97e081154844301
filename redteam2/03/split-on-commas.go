// WRONG: strings.Split on commas then a strict parse of each element: a comma inside the quotes splits the tag, so "a,b" never matches a,b

//go:build !solution

package main

import "strings"

// opaque strips W/ and the quotes from our own ETag.
func opaque(etag string) string {
	etag = strings.TrimPrefix(etag, "W/")
	return strings.TrimSuffix(strings.TrimPrefix(etag, `"`), `"`)
}

func NotModified(h, etag string) bool {
	if strings.Trim(h, " \t") == "*" {
		return true
	}
	want := opaque(etag)
	for _, e := range strings.Split(h, ",") {
		e = strings.Trim(e, " \t")
		if e == "" {
			continue
		}
		e = strings.TrimPrefix(e, "W/")
		if len(e) < 2 || e[0] != 0x22 || e[len(e)-1] != 0x22 || strings.Count(e, `"`) != 2 {
			return false
		}
		if e[1:len(e)-1] == want {
			return true
		}
	}
	return false
}
