package scenario

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/peakload/workshop/internal/messages"
	"github.com/peakload/workshop/internal/params"
	"github.com/peakload/workshop/internal/result"
)

// A tolerance prints in at most two short lines, in both languages (issue
// 32): beside the verdict the learner reads the bar; how it was derived
// goes to the step's README. Every step's claims are judged on its
// reference run, so the figures a tolerance prints are real ones.
func TestTolerancesPrintInTwoShortLines(t *testing.T) {
	env := Env{Params: params.Load()}
	for _, s := range All() {
		if s.Claims == nil {
			continue
		}
		path := filepath.Join("..", "..", "results", "reference", fmt.Sprintf("step-%d.json", s.N))
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var r result.Result
		if err := json.Unmarshal(raw, &r); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for _, c := range s.Claims(&r, env) {
			for _, l := range []messages.Lang{messages.English, messages.Vietnamese} {
				tol := c.LinesIn(l).Tolerance
				lines := result.Wrap(tol, result.ToleranceWidth)
				if len(lines) > result.ToleranceLines {
					t.Errorf("step %d %s (%s): the tolerance prints in %d lines of %d, at most %d (%d characters; its derivation goes to the README):\n\t%s",
						s.N, c.ID, l, len(lines), result.ToleranceWidth, result.ToleranceLines, utf8.RuneCountInString(tol), tol)
				}
				for _, line := range lines {
					if n := utf8.RuneCountInString(line); n > result.ToleranceWidth {
						t.Errorf("step %d %s (%s): a word of %d characters in the tolerance: %q", s.N, c.ID, l, n, line)
					}
				}
			}
		}
	}
}
