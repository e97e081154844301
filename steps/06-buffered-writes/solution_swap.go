// DO NOT EDIT. This file only swaps in the reference answer under the
// `solution` build tag (make step-6 check SOLUTION=1). Your work goes in
// exercise.go.

//go:build solution

package main

import "github.com/peakload/workshop/solutions/06-buffered-writes"

// run is the reference loop (make step-6 check SOLUTION=1). It is a method
// of the given Batcher, which a package of its own cannot extend, so this
// one line hands the reference the batcher's fields.
func (b *Batcher) run() { bulk.Run(b.queue, b.done, b.size, b.interval, b.write) }
