package scenario

import (
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/harness/result"
)

// The report sets apart the claims judged on a source's own stack by the
// opening of their text (result.Claim.OnSourcesStack): every claim that
// names where it was judged, with ORIGINAL=1's rows asked for, names Go
// or a source's stack in those words, and the report agrees.
func TestClaimsOnTheSourcesStackAreSetApartByTheReport(t *testing.T) {
	onSource := 0
	for _, s := range All() {
		if s.Claims == nil {
			continue
		}
		for _, c := range s.Claims(&result.Result{}, Env{Params: params.Load(), Original: true}) {
			switch where, _, _ := strings.Cut(c.Article, "] "); {
			case !strings.HasPrefix(c.Article, "["):
				continue // says no place: a claim of the step, not of a stack
			case where == "["+inGo.en:
				if c.OnSourcesStack() {
					t.Errorf("step %d %s: judged in Go, the report takes it for the source's stack: %s", s.N, c.ID, c.Article)
				}
			case !c.OnSourcesStack():
				t.Errorf("step %d %s: %q is neither %q nor %q…: the report would show it as a claim judged in Go", s.N, c.ID, where+"]", "["+inGo.en+"]", "["+result.SourcesStack)
			default:
				onSource++
			}
		}
	}
	if onSource == 0 {
		t.Error("no claim judged on a source's stack with ORIGINAL=1: the test saw nothing")
	}
}
