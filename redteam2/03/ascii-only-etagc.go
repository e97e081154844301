// WRONG: the opaque part is checked for visible ASCII only (0x21-0x7E): obs-text bytes 0x80-0xFF, which etagc allows, make the header malformed, so a tag holding UTF-8 never matches

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
		for i := 0; i < len(tag); i++ {
			if tag[i] < 0x21 || tag[i] > 0x7e { // etagc: visible ASCII
				return false
			}
		}
		rest = strings.TrimLeft(rest[2+end:], " \t")
		if rest != "" && rest[0] != 0x2c {
			return false
		}
		if tag == want {
			return true
		}
	}
}
