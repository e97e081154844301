// Package testseed is the one reading of PEAKLOAD_SEED, the knob that
// replays one seed of a generated test: every model-based or generated
// test prints its failing seed as PEAKLOAD_SEED=n, and reads it back here,
// so a mistyped seed fails the test instead of silently running others.
package testseed

import (
	"os"
	"strconv"
	"testing"
)

// Replay is the seed PEAKLOAD_SEED names, and whether it names one.
func Replay(t testing.TB) (uint64, bool) {
	t.Helper()
	v := os.Getenv("PEAKLOAD_SEED")
	if v == "" {
		return 0, false
	}
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		t.Fatalf("PEAKLOAD_SEED=%q: want the number a failing run printed", v)
	}
	return n, true
}

// Or is PEAKLOAD_SEED's seed, else def.
func Or(t testing.TB, def uint64) uint64 {
	t.Helper()
	if n, ok := Replay(t); ok {
		return n
	}
	return def
}

// Seeds are the seeds a generated test runs: 1 to n, or only the one
// PEAKLOAD_SEED names, to replay a failure.
func Seeds(t testing.TB, n int) []uint64 {
	t.Helper()
	if s, ok := Replay(t); ok {
		return []uint64{s}
	}
	seeds := make([]uint64, n)
	for i := range seeds {
		seeds[i] = uint64(i + 1)
	}
	return seeds
}
