// DO NOT EDIT. This file only swaps in the reference answer under the
// `solution` build tag (make step-8 check SOLUTION=1). Your work goes in
// exercise.go.

//go:build solution

package main

import "github.com/peakload/workshop/solutions/08-profiling"

// Guard is the reference (make step-8 check SOLUTION=1).
type Guard = lockout.Guard

// NewGuard is the reference constructor.
var NewGuard = lockout.NewGuard
