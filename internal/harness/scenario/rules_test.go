package scenario

import (
	"testing"
	"unicode/utf8"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/harness/result"
)

// Issue 32's two rules for every step's claims, on its reference run.

// A tolerance prints in at most two short lines, in both languages (issue
// 32): beside the verdict the learner reads the bar; how it was derived
// goes to the step's README. Every step's claims are judged on its
// reference run, so the figures a tolerance prints are real ones.
func TestTolerancesPrintInTwoShortLines(t *testing.T) {
	env := Env{Params: params.Load()}
	for _, s := range All() {
		if s.Claims == nil || s.Unrecorded {
			continue // no claims, or no reference run yet to judge them on
		}
		r := referenceRun(t, s.N)
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

// Every step with an exercise has a claim its learner's code controls,
// and the reference run (SOLUTION=1, the default native stack) reproduces
// it, judged again by today's code on its recorded figures.
func TestTheReferenceRewardsEveryExercise(t *testing.T) {
	env := Env{Params: params.Load()}
	for _, s := range All() {
		ids := s.Rewards
		if !s.Exercise || s.Unrecorded {
			continue // no exercise, or no reference run yet (make new-step's mark)
		}
		if len(ids) == 0 {
			t.Errorf("step %d has an exercise but names no claim its learner's code controls: set Rewards in its register call (internal/harness/scenario/step%02d.go)", s.N, s.N)
			continue
		}
		r := referenceRun(t, s.N)
		if r.Machine.Stack != "native" && r.Machine.Stack != "none" {
			t.Errorf("step %d: the reference ran on stack %q, not the default native one", s.N, r.Machine.Stack)
		}
		now := s.Claims(&r, env)
		for _, id := range ids {
			c := recorded(now, id)
			switch {
			case c == nil:
				t.Errorf("step %d: its Rewards name %s, which the step does not declare", s.N, id)
			case recorded(r.Claims, id) == nil:
				t.Errorf("step %d %s: not in the reference run (go test ./internal/harness/scenario -run TestReferenceRunsPrintTheDeclaredTexts -add-claims)", s.N, id)
			case c.Reproduced == nil || !*c.Reproduced:
				t.Errorf("step %d %s: the reference does not reproduce the learner's claim: %s", s.N, id, c.Measured)
			}
		}
	}
}
