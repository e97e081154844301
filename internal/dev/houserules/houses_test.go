package houserules

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/harness/gotree"
)

// houses are internal/'s three folders, each one concern a newcomer can
// tell apart at a glance: what the learner is given (the code a step
// server runs around the exercise), the harness that measures and checks
// it, and the maintainer's tools. The arrows point one way: the harness
// measures what is given, never the reverse, and neither ships the
// maintainer's tools.
var houses = []string{"dev", "given", "harness"}

// forbidden is, for the non-test Go files under a folder, the houses they
// may not import. Tests may import the harness: a check is the harness.
var forbidden = map[string][]string{
	"internal/given":   {"harness", "dev"},
	"steps":            {"harness", "dev"},
	"solutions":        {"harness", "dev"},
	"internal/harness": {"dev"},
	"cmd/workshop":     {"dev"},
	"cmd/mongo":        {"dev"},
}

func TestInternalHoldsThreeHouses(t *testing.T) {
	entries, err := os.ReadDir(filepath.Join("..", "..", "..", "internal"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if !slices.Equal(got, houses) {
		t.Errorf("internal/ holds %v; want exactly %v: a new package goes into the house it belongs to (README's Layout says which)", got, houses)
	}
}

func TestGivenCodeImportsNothingFromTheHarness(t *testing.T) {
	const module = "github.com/peakload/workshop/internal/"
	for dir, banned := range forbidden {
		paths, err := gotree.Code(filepath.Join("..", "..", "..", dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range paths {
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range f.Imports {
				p, _ := strconv.Unquote(imp.Path.Value)
				for _, h := range banned {
					if strings.HasPrefix(p, module+h+"/") {
						t.Errorf("%s imports %s: %s/ may not import internal/%s/", path, p, dir, h)
					}
				}
			}
		}
	}
}
