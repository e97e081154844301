// Package testseed hands the tests PEAKLOAD_SEED, the knob that replays one
// seed of a generated test: every model-based or generated test prints its
// failing seed as PEAKLOAD_SEED=n, and reads it back here. The variable is
// read with the rest of the configuration (internal/harness/config), so a
// mistyped seed fails the test, naming it, instead of silently running
// others.
package testseed

import (
	"testing"

	"github.com/peakload/workshop/internal/harness/config"
)

// Replay is the seed PEAKLOAD_SEED names, and whether it names one.
func Replay(t testing.TB) (uint64, bool) {
	t.Helper()
	c, err := config.FromEnv()
	if err != nil {
		t.Fatal(err)
	}
	return c.Seed, c.Replay
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
