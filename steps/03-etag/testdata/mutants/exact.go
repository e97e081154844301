// exact: compares the whole header with the ETag: no list, no weak comparison

//go:build !solution

package main

func NotModified(ifNoneMatch, etag string) bool {
	return ifNoneMatch == "*" || ifNoneMatch == etag
}
