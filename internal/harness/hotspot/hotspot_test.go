package hotspot

import (
	"testing"

	"github.com/google/pprof/profile"
)

// sample is a stack, leaf first, spending v.
func sample(v int64, stack ...string) *profile.Sample {
	s := &profile.Sample{Value: []int64{1, v}}
	for _, fn := range stack {
		s.Location = append(s.Location, &profile.Location{Line: []profile.Line{{Function: &profile.Function{Name: fn}}}})
	}
	return s
}

// A function of ours is charged all it spent and named with the callee
// that spent most of it, whichever sample came first: a first sample taken
// in the function's own code (no callee) once hid crypto/pbkdf2.Key, and
// step 8's check failed a right answer.
func TestReadNamesTheHeaviestCallee(t *testing.T) {
	const ours, verify = "github.com/peakload/workshop/steps/08.PBKDF2.func2", "github.com/peakload/workshop/internal/given/accounts.(*Directory).Verify"
	p := &profile.Profile{Sample: []*profile.Sample{
		sample(1, ours, verify),
		sample(5, "crypto/internal/fips140/sha256.block", "crypto/pbkdf2.Key", ours, verify),
		sample(3, "crypto/pbkdf2.Key", ours, verify),
		sample(2, "runtime.mallocgc", ours, verify),
		sample(4, "runtime.futex", "runtime.lock"),
	}}
	r := Read(p, 1)
	if r.Total != 15 || r.Top.Func != ours || r.Top.Value != 11 {
		t.Fatalf("top %s spent %d of %d, want %s spending 11 of 15", r.Top.Func, r.Top.Value, r.Total, ours)
	}
	if want := "crypto/pbkdf2.Key ← steps/08.PBKDF2.func2 ← internal/given/accounts.(*Directory).Verify"; r.Top.Stack(9) != want {
		t.Errorf("stack %q, want %q", r.Top.Stack(9), want)
	}
}
