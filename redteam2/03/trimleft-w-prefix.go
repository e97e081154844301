// WRONG: strings.TrimLeft(rest, "W/") treats W/ as a set of bytes: W/W/"x", /"x" and WW/"x" are read as tags instead of malformed

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
		rest = strings.TrimLeft(rest, "W/")
		if rest == "" || rest[0] != '"' {
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
