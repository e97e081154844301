// DO NOT EDIT. This file only swaps in the reference answer under the
// `solution` build tag (make step-4 check SOLUTION=1). Your work goes in
// exercise.go.

//go:build solution

package main

import coalesce "github.com/peakload/workshop/solutions/04-singleflight"

// Group is the reference (make step-4 check SOLUTION=1).
type Group = coalesce.Group
