// DO NOT EDIT. This file only swaps in the reference answer under the
// `solution` build tag (make step-10 check SOLUTION=1). Your work goes in
// exercise.go.

//go:build solution

package main

import invalidate "github.com/peakload/workshop/solutions/10-scale-out"

// Change and Listen are the reference (make step-10 check SOLUTION=1).
var (
	Change = invalidate.Change
	Listen = invalidate.Listen
)
