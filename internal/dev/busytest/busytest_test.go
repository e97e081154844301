package busytest

import (
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/harness/result"
)

// Beside the busy loop a claim may keep its verdict, be UNSTABLE or not
// judged; only the opposite verdict, both judged and stable, fails.
func TestOppositeVerdictsOnly(t *testing.T) {
	yes, no := true, false
	quiet := &result.Result{Claims: []result.Claim{{ID: "same", Reproduced: &yes}, {ID: "flip", Reproduced: &yes},
		{ID: "unstable", Reproduced: &yes}, {ID: "busy", Reproduced: &no}, {ID: "unjudged"}}}
	busy := &result.Result{Claims: []result.Claim{{ID: "same", Reproduced: &yes}, {ID: "flip", Reproduced: &no},
		{ID: "unstable", Reproduced: &no, Unstable: true}, {ID: "busy", Busy: "empty-get 50%", IfJudged: &yes}, {ID: "unjudged", Reproduced: &yes}}}
	got := opposite(quiet, busy)
	if len(got) != 1 || !strings.HasPrefix(got[0], "flip: REPRODUCED as the machine was, NOT reproduced beside the loop") {
		t.Errorf("opposite: %q, want the flip alone", got)
	}
}
