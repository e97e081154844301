package messages

import (
	"maps"
	"path/filepath"
	"slices"
	"testing"

	"github.com/peakload/workshop/internal/given/messages/messagestest"
)

// TestCatalogueFollowsTheGlossary: the glossary is the law for what the
// CLI prints too (issue 34): no Vietnamese message writes a variant
// docs/vi/forbidden.txt rules out ("pin" for ghim, "người học" for học
// viên), every key, not only those a run reaches.
func TestCatalogueFollowsTheGlossary(t *testing.T) {
	rules, err := messagestest.ForbiddenRules(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range slices.Sorted(maps.Keys(vi)) {
		for _, broken := range messagestest.Broken(rules, vi[k]) {
			t.Errorf("%s: %s: %q", k, broken, vi[k])
		}
	}
}
