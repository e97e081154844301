//go:build solution

package main

import coalesce "github.com/peakload/workshop/solutions/04-singleflight"

// Group is the reference (make step-4 check SOLUTION=1).
type Group = coalesce.Group
