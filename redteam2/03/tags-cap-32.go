// WRONG: only the first 32 tags are read (to bound the work): a matching tag further down a long list is a 200

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
	rest := h
	for n := 0; n < 32; n++ { // a real client sends a handful; bound the work
		rest = strings.TrimLeft(rest, " \t,")
		if rest == "" {
			return false
		}
		if strings.HasPrefix(rest, "W/") {
			rest = rest[2:]
		}
		if rest == "" || rest[0] != 0x22 {
			return false
		}
		end := strings.IndexByte(rest[1:], 0x22)
		if end < 0 {
			return false
		}
		tag := rest[1 : 1+end]
		rest = strings.TrimLeft(rest[2+end:], " \t")
		if rest != "" && rest[0] != 0x2c {
			return false
		}
		if tag == want {
			return true
		}
	}
	return false
}
