//go:build solution

package main

import "github.com/peakload/workshop/solutions/07-counters"

// Reduce is the reference (make step-7 check SOLUTION=1).
var Reduce = counters.Reduce
