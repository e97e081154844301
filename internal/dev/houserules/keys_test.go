package houserules

import (
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/harness/gotree"
)

var (
	// said is a key said by its literal, as in T("audit.title", …).
	said = regexp.MustCompile(`messages\.T\("([a-z0-9_.]+)"`)
	// declared is a key where a table declares it: a Line's Key field
	// ({Key: "audit.title", …}, or {"audit.title", "English", "Tiếng Việt"}
	// in messages itself), not a column table's {"table.col.x", "%.3f", …}.
	declared = regexp.MustCompile(`(?m)^\s*\{(?:Key:\s*"([a-z0-9_]+\.[a-z0-9_.]+)",|"([a-z0-9_]+\.[a-z0-9_.]+)",\s*"(?:[^"\\]|\\.)*",\s*")`)
)

// Every key a Go file says by its literal is declared in a table of the
// catalogue, and declared once: a missing key prints itself ("cli.stack%!(EXTRA …)") where
// the learner expected a sentence, and a package move that renames a
// key's prefix with the package would go unseen. A literal ending in "."
// is a prefix the code completes (drill.row.+name): some key must start
// with it.
func TestEveryKeySaidIsInTheCatalogue(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	files, err := gotree.Files(root)
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	declaredIn := map[string][]string{}
	uses := map[string][]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, f)
		for _, m := range declared.FindAllSubmatch(b, -1) {
			key := string(m[1]) + string(m[2])
			keys[key] = true
			declaredIn[key] = append(declaredIn[key], rel)
		}
		for _, m := range said.FindAllSubmatch(b, -1) {
			uses[string(m[1])] = append(uses[string(m[1])], rel)
		}
	}
	if len(keys) < 100 || len(uses) < 100 {
		t.Fatalf("found %d declared keys and %d said ones: the catalogue's shape changed, update the patterns", len(keys), len(uses))
	}
	for key, where := range declaredIn {
		// messages.Add refuses a key twice within one program; two
		// programs (the CLI, the docs generator) could each say their own.
		if len(where) > 1 {
			t.Errorf("the key %q is declared %d times (%s): one key, one text", key, len(where), strings.Join(where, ", "))
		}
	}
	for key, where := range uses {
		if keys[key] {
			continue
		}
		if strings.HasSuffix(key, ".") && slices.ContainsFunc(slices.Collect(maps.Keys(keys)), func(k string) bool { return strings.HasPrefix(k, key) }) {
			continue
		}
		t.Errorf("%s say messages.T(%q), which no table of the catalogue declares", strings.Join(slices.Compact(slices.Sorted(slices.Values(where))), ", "), key)
	}
}
