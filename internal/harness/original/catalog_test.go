package original_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/given/catalog"
	"github.com/peakload/workshop/internal/harness/original"
)

// TestLibItemQueryIsCatalogs holds originals/lib/catalog.js's ITEM_QUERY to
// catalog.ItemQuery word for word: the two are a parallel table on purpose
// (one for each runtime), and a DB read must cost PostgreSQL the same on
// every stack for the bench to compare the stacks and nothing else.
func TestLibItemQueryIsCatalogs(t *testing.T) {
	root, err := original.Root()
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(root, original.Dir, "lib", "catalog.js"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(src), "const ITEM_QUERY = `")
	query, _, closed := strings.Cut(rest, "`")
	if !ok || !closed {
		t.Fatal("originals/lib/catalog.js: no ITEM_QUERY template literal")
	}
	if query != catalog.ItemQuery {
		t.Errorf("originals/lib/catalog.js's ITEM_QUERY differs from catalog.ItemQuery:\n%s\nwant:\n%s", query, catalog.ItemQuery)
	}
}
