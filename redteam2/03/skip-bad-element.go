// WRONG: a malformed element is skipped (to the next comma) instead of making the header match nothing: "x, "a" matches a

//go:build !solution

package main

import (
	"strconv"
	"strings"
)

var _ = strconv.Quote

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
		if rest == "" || rest[0] != '"' {
			if i := strings.IndexByte(rest, 0x2c); i >= 0 {
				rest = rest[i:]
				continue
			}
			return false
		}
		end := strings.IndexByte(rest[1:], '"')
		if end < 0 {
			return false
		}
		tag := rest[1 : 1+end]
		rest = strings.TrimLeft(rest[2+end:], " \t")
		if rest != "" && rest[0] != ',' {
			return false
		}

		if tag == want {
			return true
		}
	}
}
