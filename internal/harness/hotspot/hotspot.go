// Package hotspot reads a pprof profile the way a learner should: not "which
// runtime function is on top" but "which of the workshop's own functions
// spends it, and on what". Each sample is charged to the innermost frame of
// our code on its stack (main.* or this module), together with the frame it
// called.
package hotspot

import (
	"fmt"
	"os"
	"strings"

	"github.com/google/pprof/profile"
)

// Outside names the samples with no frame of ours: runtime, net/http, the
// framework.
const Outside = "(outside the workshop's code: runtime, net/http, the framework)"

// Ours reports whether fn is the workshop's code: the frames a learner can change.
func Ours(fn string) bool {
	return strings.HasPrefix(fn, "main.") || strings.HasPrefix(fn, "github.com/peakload/workshop/")
}

// Spend is one of our functions and what it spent.
type Spend struct {
	Func   string   // ours, the innermost
	Callee string   // what it called, where the time went ("" if itself)
	Chain  []string // Func and our frames above it, innermost first
	Value  int64
}

// Stack renders the spend as a short stack, callee first:
// "crypto/pbkdf2.Key ← accounts.PBKDF2.func1 ← accounts.(*Directory).Verify".
func (s Spend) Stack(depth int) string {
	parts := []string{}
	if s.Callee != "" {
		parts = append(parts, short(s.Callee))
	}
	for i, f := range s.Chain {
		if i == depth {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, short(f))
	}
	return strings.Join(parts, " ← ")
}

// short drops the module path and generic shapes: what a learner greps for.
func short(fn string) string {
	if i := strings.IndexByte(fn, '['); i > 0 {
		fn = fn[:i]
	}
	return strings.TrimPrefix(fn, "github.com/peakload/workshop/")
}

// Reading is a profile charged to our functions.
type Reading struct {
	Total int64
	Top   Spend // the function of ours with the biggest share
}

// Share is Top's fraction of the total.
func (r Reading) Share() float64 {
	if r.Total == 0 {
		return 0
	}
	return float64(r.Top.Value) / float64(r.Total)
}

// Read charges the samples' value at index (CPU: 1 = nanoseconds; mutex: 1
// = delay) to our functions and returns the biggest, with the callee (and
// chain) that spent most of it: samples taken inside the function itself
// or on a rare path must not name what it calls.
func Read(p *profile.Profile, index int) Reading {
	by := map[string]map[string]*Spend{} // our function → callee → its share
	var r Reading
	for _, s := range p.Sample {
		v := s.Value[index]
		r.Total += v
		chain, callee := ownFrames(s)
		fn := Outside
		if len(chain) > 0 {
			fn = chain[0]
		}
		if by[fn] == nil {
			by[fn] = map[string]*Spend{}
		}
		sp := by[fn][callee]
		if sp == nil {
			sp = &Spend{Func: fn, Callee: callee, Chain: chain}
			by[fn][callee] = sp
		}
		sp.Value += v
	}
	for _, callees := range by {
		top := heaviest(callees) // named by its main callee, charged all it spent
		top.Value = 0
		for _, sp := range callees {
			top.Value += sp.Value
		}
		if top.Value > r.Top.Value || (top.Value == r.Top.Value && top.Func < r.Top.Func) {
			r.Top = top
		}
	}
	return r
}

// heaviest is the callee that spent most (by name on a tie), as a Spend.
func heaviest(callees map[string]*Spend) Spend {
	var top Spend
	for _, sp := range callees {
		if sp.Value > top.Value || (sp.Value == top.Value && sp.Callee < top.Callee) {
			top = *sp
		}
	}
	return top
}

// ownFrames walks a stack from its leaf to the first frame of ours and
// returns our frames from there up (until the stack leaves our code), with
// the frame just below them.
func ownFrames(s *profile.Sample) (chain []string, below string) {
	for _, loc := range s.Location { // leaf first
		for _, line := range loc.Line { // inlined frames, innermost first
			fn := line.Function.Name
			switch {
			case Ours(fn):
				chain = append(chain, fn)
			case len(chain) > 0:
				return chain, below
			default:
				below = fn
			}
		}
	}
	return chain, below
}

// File parses a profile written by /debug/pprof or runtime/pprof.
func File(path string) (*profile.Profile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// Diff returns after − before: what a cumulative profile (mutex, block)
// recorded between two snapshots.
func Diff(before, after *profile.Profile) (*profile.Profile, error) {
	b := before.Copy()
	b.Scale(-1)
	return profile.Merge([]*profile.Profile{after, b})
}
