// splitquotes: splits on the quote character instead of the comma: an opaque tag cannot contain a quote, so the odd pieces are the tags and the even ones must be separators

//go:build !solution

package main

import "strings"

func NotModified(ifNoneMatch, etag string) bool {
	if strings.TrimSpace(ifNoneMatch) == "*" {
		return true
	}
	want := strings.Trim(strings.TrimPrefix(etag, "W/"), `"`)
	pieces := strings.Split(ifNoneMatch, `"`)
	if len(pieces)%2 == 0 || len(pieces) < 3 {
		return false // an odd number of quotes, or none: malformed
	}
	match := false
	for i, p := range pieces {
		if i%2 == 1 {
			match = match || p == want
			continue
		}
		// Between two tags: optional spaces, one comma; before a tag: W/ allowed.
		sep := strings.TrimSpace(p)
		sep = strings.TrimSuffix(sep, "W/")
		sep = strings.TrimSpace(sep)
		switch {
		case i == 0 && sep != "":
			return false
		case i == len(pieces)-1 && sep != "":
			return false
		case i > 0 && i < len(pieces)-1 && sep != ",":
			return false
		}
	}
	return match
}
