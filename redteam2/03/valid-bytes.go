// valid: a byte-by-byte state machine instead of string helpers

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
	const (
		between = iota // before an element, or after a comma
		inTag
		afterTag
	)
	state, start := between, 0
	for i := 0; i < len(h); i++ {
		c := h[i]
		switch state {
		case between:
			switch {
			case c == 0x20 || c == 0x09 || c == 0x2c:
			case c == 0x57 && i+2 < len(h) && h[i+1] == 0x2f && h[i+2] == 0x22:
				i += 2
				state, start = inTag, i+1
			case c == 0x22:
				state, start = inTag, i+1
			default:
				return false
			}
		case inTag:
			if c == 0x22 {
				state = afterTag
				if h[start:i] == want && tagEnds(h[i+1:]) {
					return true
				}
			}
		case afterTag:
			switch c {
			case 0x20, 0x09:
			case 0x2c:
				state = between
			default:
				return false
			}
		}
	}
	return false
}

// tagEnds: only optional white space, then a comma or the end, may follow a tag.
func tagEnds(s string) bool {
	s = strings.TrimLeft(s, " \t")
	return s == "" || s[0] == 0x2c
}
