// splitcommas: splits the header on commas: a comma inside a quoted tag splits it, and W/"x,5d1e2a" matches
// vi: tách header theo dấu phẩy: dấu phẩy nằm trong một tag có ngoặc kép tách đôi tag đó, và W/"x,5d1e2a" khớp

//go:build !solution

package main

import "strings"

func NotModified(ifNoneMatch, etag string) bool {
	want := strings.Trim(strings.TrimPrefix(etag, "W/"), `"`)
	for _, part := range strings.Split(ifNoneMatch, ",") {
		part = strings.TrimSpace(part)
		if part == "*" {
			return true
		}
		part = strings.TrimPrefix(part, "W/")
		if len(part) >= 2 && part[0] == '"' && part[len(part)-1] == '"' && part[1:len(part)-1] == want {
			return true
		}
		if strings.Trim(part, `"`) == want {
			return true
		}
	}
	return false
}
