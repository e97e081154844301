// Package phases counts the named phases of make test and make
// test-originals: each runs to its end and says ok or FAIL with its time.
package phases

import (
	"fmt"
	"os"
	"time"
)

// Tally counts the named phases of make test (and test-originals): each
// runs to its end, says ok or FAIL with its time, and the run ends with
// "N passed, M failed".
type Tally struct{ passed, failed int }

func (p *Tally) Run(name string, f func() error) {
	t := time.Now()
	fmt.Fprintf(os.Stderr, "\n=== %s\n", name)
	if err := f(); err != nil {
		p.failed++
		fmt.Fprintf(os.Stderr, "--- FAIL %s (%.1fs): %v\n", name, time.Since(t).Seconds(), err)
		return
	}
	p.passed++
	fmt.Fprintf(os.Stderr, "--- ok   %s (%.1fs)\n", name, time.Since(t).Seconds())
}

func (p *Tally) Done() error {
	fmt.Printf("\n%d passed, %d failed\n", p.passed, p.failed)
	if p.failed > 0 {
		return fmt.Errorf("%d phase(s) failed", p.failed)
	}
	return nil
}
