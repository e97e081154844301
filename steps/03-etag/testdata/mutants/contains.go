// contains: strings.Contains: W/"5d1e2ab", "x5d1e2a" and a tag inside another tag all match
// vi: strings.Contains: W/"5d1e2ab", "x5d1e2a" và một tag nằm trong tag khác đều khớp

//go:build !solution

package main

import "strings"

func NotModified(ifNoneMatch, etag string) bool {
	if ifNoneMatch == "*" {
		return true
	}
	return strings.Contains(ifNoneMatch, strings.Trim(strings.TrimPrefix(etag, "W/"), `"`))
}
