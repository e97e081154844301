// DO NOT EDIT. This file only swaps in the reference answer under the
// `solution` build tag (make step-6 check SOLUTION=1). Your work goes in
// exercise.go.

//go:build solution

package main

import "github.com/peakload/workshop/solutions/06-buffered-writes"

// The reference batcher (make step-6 check SOLUTION=1).
type Batcher = bulk.Batcher

// New is the reference constructor.
var New = bulk.New
