package scenario

import (
	"path/filepath"
	"testing"

	"github.com/peakload/workshop/internal/given/messages/messagestest"
	"github.com/peakload/workshop/internal/given/params"
)

// TestClaimLinesFollowTheGlossary: the glossary is the law for what a
// Vietnamese room reads on the bench too (issue 34): no claim's Vietnamese
// line, declared or judged on its step's reference run, writes a variant
// docs/vi/forbidden.txt rules out ("không chấm" for not judged, "pin" for
// pinned).
func TestClaimLinesFollowTheGlossary(t *testing.T) {
	rules, err := messagestest.ForbiddenRules(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	claims := everyClaim(t)
	env := Env{Params: params.Load(), Original: true}
	for _, s := range All() {
		if s.Claims != nil && !s.Unrecorded {
			r := referenceRun(t, s.N)
			claims = append(claims, s.Claims(&r, env)...)
		}
	}
	for _, c := range claims {
		for _, l := range []string{c.Vi.Text, c.Vi.Measured, c.Vi.Tolerance} {
			for _, broken := range messagestest.Broken(rules, l) {
				t.Errorf("%s: %s: %q", c.ID, broken, l)
			}
		}
	}
}
