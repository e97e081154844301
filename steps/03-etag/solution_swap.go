// DO NOT EDIT. This file only swaps in the reference answer under the
// `solution` build tag (make step-3 check SOLUTION=1). Your work goes in
// exercise.go.

//go:build solution

package main

import "github.com/peakload/workshop/solutions/03-etag"

// NotModified is the reference (make step-3 check SOLUTION=1).
var NotModified = etag.NotModified
