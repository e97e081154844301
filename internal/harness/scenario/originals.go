package scenario

import (
	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/harness/load"
)

// OriginalRows are the rows ORIGINAL=1 adds to s's bench: the variants run
// on a source's own stack (load.Variant.Original). `make test-originals`
// wants each of them measured, and the README's table reads their figures.
func (s Step) OriginalRows(p params.Params) []load.Variant {
	var out []load.Variant
	for _, v := range s.Variants(Env{Params: p, Tool: "go", Original: true}) {
		// A Direct row named for a stack runs the source's script itself
		// (article B's raw inserts on Node).
		if v.Original != nil || (v.Direct != nil && s.IsOriginalRow(v.Name)) {
			out = append(out, v)
		}
	}
	return out
}

// undeclaredOriginals names the rows of s that run an original whose stack
// the step's entry does not declare (course.Step.Originals), and the rows
// named for an original that run Go: either would make the README's
// column and `make test-originals` miss or misread them.
func (s Step) undeclaredOriginals(p params.Params) []string {
	var bad []string
	for _, v := range s.Variants(Env{Params: p, Tool: "go", Original: true}) {
		named := s.IsOriginalRow(v.Name)
		if v.Direct != nil && named {
			continue // measures itself running the source's script (article B's raw inserts on Node)
		}
		if (v.Original != nil) != named {
			bad = append(bad, string(v.Name))
		}
	}
	return bad
}
