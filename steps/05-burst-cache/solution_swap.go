// DO NOT EDIT. This file only swaps in the reference answer under the
// `solution` build tag (make step-5 check SOLUTION=1). Your work goes in
// exercise.go.

//go:build solution

package main

import "github.com/peakload/workshop/solutions/05-burst-cache"

// Cache and New are the reference (make step-5 check SOLUTION=1).
type Cache = burst.Cache

// New is the reference constructor.
var New = burst.New
