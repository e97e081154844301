// WRONG: our own ETag is unwrapped with strings.Trim(etag, `W/"`), a cutset: an opaque part that starts with W or / or ends with / (W/"Wx/") loses bytes and never matches

//go:build !solution

package main

import "strings"

// opaque strips W/ and the quotes from our own ETag.
func opaque(etag string) string { return strings.Trim(etag, `W/"`) }

func NotModified(h, etag string) bool {
	if strings.Trim(h, " \t") == "*" {
		return true
	}
	want := opaque(etag)
	rest := h
	for {
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
}
