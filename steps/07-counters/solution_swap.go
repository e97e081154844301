// DO NOT EDIT. This file only swaps in the reference answer under the
// `solution` build tag (make step-7 check SOLUTION=1). Your work goes in
// exercise.go.

//go:build solution

package main

import "github.com/peakload/workshop/solutions/07-counters"

// Reduce is the reference (make step-7 check SOLUTION=1).
var Reduce = reduce.Reduce
