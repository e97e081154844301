package scenario

import (
	"testing"

	"github.com/peakload/workshop/internal/given/params"
)

// TestRowsOnTheSourcesStacksAreDeclared: every row that runs a source's own stack
// is named for a stack its step declares (course.Step.Originals), every
// row so named runs one, and none appears without ORIGINAL=1 — the Go
// rows of a plain bench stay what they were.
func TestRowsOnTheSourcesStacksAreDeclared(t *testing.T) {
	p := params.Load()
	for _, s := range All() {
		if bad := s.undeclaredOriginals(p); len(bad) > 0 {
			t.Errorf("step %d: rows %v: a row runs an original (load.Variant.Original) exactly when its name is course.On(stack, …) or course.FrameworkRow(stack, …) for a stack in internal/harness/course/original.go's originals[%d] = %v",
				s.N, bad, s.N, s.Originals())
		}
		for _, v := range s.Variants(Env{Params: p, Tool: "go"}) {
			if v.Original != nil || s.IsOriginalRow(v.Name) {
				t.Errorf("step %d: %s runs %s without ORIGINAL=1: the originals' rows are added only when env.Original is set", s.N, v.Name, v.Original)
			}
		}
	}
}
