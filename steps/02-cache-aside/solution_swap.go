// DO NOT EDIT. This file only swaps in the reference answer under the
// `solution` build tag (make step-2 check SOLUTION=1). Your work goes in
// exercise.go.

//go:build solution

package main

import cacheaside "github.com/peakload/workshop/solutions/02-cache-aside"

// GetOrSet is the reference (make step-2 check SOLUTION=1).
var GetOrSet = cacheaside.GetOrSet
