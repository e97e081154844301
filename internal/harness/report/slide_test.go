package report

import (
	"path/filepath"
	"testing"

	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/result"
)

// TestSlideFiguresAreRecorded: a slide whose bars read a step-specific
// figure names it by its result.Key's value (internal/harness/course cannot import
// internal/harness/result), so a misspelt one would draw bars of 0. Each such
// figure is one the step's reference run recorded for every run it shows.
func TestSlideFiguresAreRecorded(t *testing.T) {
	for _, s := range course.All() {
		f := s.Slide.Figure
		if len(s.Slide.Variants) == 0 || s.Unrecorded || f == course.ReqPerSec || f == course.DBQueries || f == course.RedisBytes {
			continue
		}
		r, err := Load(filepath.Join("..", "..", "..", "results"), s.N, true)
		if err != nil || r == nil {
			t.Fatalf("step %d: no reference run (%v)", s.N, err)
		}
		for _, v := range s.Slide.Variants {
			if x := find(r, v); x == nil {
				t.Errorf("step %d: the slide shows %s, which the reference run lacks", s.N, v)
			} else if _, ok := x.Extra[result.Key(f)]; !ok {
				t.Errorf("step %d: the slide reads %q, which the reference run of %s did not record", s.N, f, v)
			}
		}
	}
}
