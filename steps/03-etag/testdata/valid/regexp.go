// regexp: a regular expression walks the list: each entry is optional spaces, an optional W/, a quoted tag, then a comma or the end
// vi: một biểu thức chính quy đi qua danh sách: mỗi phần tử là khoảng trắng tuỳ chọn, W/ tuỳ chọn, một tag có ngoặc kép, rồi dấu phẩy hoặc hết chuỗi

//go:build !solution

package main

import (
	"regexp"
	"strings"
)

var entityTag = regexp.MustCompile(`^[ \t]*(?:W/)?"([^"]*)"[ \t]*(?:,|$)`)

func NotModified(ifNoneMatch, etag string) bool {
	if strings.TrimSpace(ifNoneMatch) == "*" {
		return true
	}
	want := strings.TrimPrefix(etag, "W/")
	want = strings.TrimSuffix(strings.TrimPrefix(want, `"`), `"`)
	s := ifNoneMatch
	for strings.Trim(s, " \t,") != "" {
		s = strings.TrimLeft(s, " \t,")
		m := entityTag.FindStringSubmatch(s)
		if m == nil {
			return false // malformed
		}
		if m[1] == want {
			return true
		}
		s = s[len(m[0]):]
	}
	return false
}
