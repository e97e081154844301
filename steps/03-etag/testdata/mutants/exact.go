// exact: compares the whole header with the ETag: no list, no weak comparison
// vi: so cả header với ETag: không đọc danh sách, không so kiểu weak

//go:build !solution

package main

func NotModified(ifNoneMatch, etag string) bool {
	return ifNoneMatch == "*" || ifNoneMatch == etag
}
