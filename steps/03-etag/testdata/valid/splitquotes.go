// splitquotes: splits on the quote character instead of the comma: an opaque tag cannot contain a quote, so the odd pieces are the tags and the even ones must be separators
// vi: tách theo dấu ngoặc kép thay vì dấu phẩy: tag opaque không chứa được dấu ngoặc kép, nên các mảnh lẻ là tag và các mảnh chẵn phải là dấu phân cách

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
		// Between two tags: spaces and commas, at least one comma (empty
		// list elements are allowed); W/ only right before a quote.
		sep := p
		if i < len(pieces)-1 {
			sep = strings.TrimSuffix(sep, "W/")
		}
		switch {
		case strings.Trim(sep, " \t,") != "":
			return false
		case i > 0 && i < len(pieces)-1 && !strings.Contains(sep, ","):
			return false
		}
	}
	return match
}
