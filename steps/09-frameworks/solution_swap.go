// DO NOT EDIT. This file only swaps in the reference answer under the
// `solution` build tag (make step-9 check SOLUTION=1). Your work goes in
// exercise.go.

//go:build solution

package main

import chirouter "github.com/peakload/workshop/solutions/09-frameworks"

// serveYours is the reference's choice: chi (make step-9 check SOLUTION=1).
var serveYours = chirouter.Serve
