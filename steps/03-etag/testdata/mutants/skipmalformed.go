// skipmalformed: skips a list element it cannot read and keeps looking: x, "5d1e2a" and "a"x, "5d1e2a" match
// vi: bỏ qua phần tử nào không đọc được và tìm tiếp: x, "5d1e2a" và "a"x, "5d1e2a" đều khớp

//go:build !solution

package main

import "strings"

func NotModified(ifNoneMatch, etag string) bool {
	want := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(etag, "W/"), `"`), `"`)
	if strings.TrimSpace(ifNoneMatch) == "*" {
		return true
	}
	s := ifNoneMatch
	for s != "" {
		s = strings.TrimLeft(s, " \t,")
		s = strings.TrimPrefix(s, "W/")
		i := strings.IndexByte(s, '"')
		if i < 0 {
			return false
		}
		// Whatever comes before the quote is skipped, as if it were a separator.
		tag, rest, ok := strings.Cut(s[i+1:], `"`)
		if !ok {
			return false
		}
		if tag == want {
			return true
		}
		s = rest
	}
	return false
}
