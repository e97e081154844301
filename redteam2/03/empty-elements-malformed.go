// WRONG: the list must be tag, comma, tag: an empty element (a,,b or a leading comma) makes it malformed, though RFC 9110 §5.6.1 says to ignore empty elements

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
	rest := strings.TrimLeft(h, " \t")
	for {
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
		if tag == want && (rest == "" || rest[0] == 0x2c) {
			return true
		}
		if rest == "" || rest[0] != 0x2c {
			return false
		}
		rest = strings.TrimLeft(rest[1:], " \t")
	}
}
