package houserules

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"testing"

	"github.com/peakload/workshop/internal/harness/gotree"
)

// A function should fit on a screen: the learner reads the tree, and a
// maintainer changes one phase without scrolling through the others
// (issue 35). A screen is 60 lines; a few functions may run longer where
// a split would hide the story (a table, a pipeline read top-down), none
// past 80. Tests are not held to it: a test reads as its scenario.
const (
	screenLines       = 60
	maxLines          = 80
	maxOverScreenFunc = 5
)

// TestNoFunctionOver80Lines measures every function and method of the
// module's non-test Go files, from its func line to its closing brace
// (doc comment excluded), and lists those over a screen.
func TestNoFunctionOver80Lines(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	long, err := longFunctions(root, screenLines)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range long {
		t.Logf("%d lines: %s", f.lines, f.where)
		if f.lines > maxLines {
			t.Errorf("%s is %d lines, over %d: split it by meaning, a helper per phase named for what it does", f.where, f.lines, maxLines)
		}
	}
	if len(long) > maxOverScreenFunc {
		t.Errorf("%d functions over %d lines (listed above), at most %d: split the one you touched", len(long), screenLines, maxOverScreenFunc)
	}
}

// longFunction is a function over the limit: where it is and how long.
type longFunction struct {
	where string // path:line name
	lines int
}

// longFunctions are the functions of root's non-test, non-generated Go
// files longer than limit lines, longest first. testdata/ (mutants are
// wrong on purpose), node_modules/ and hidden directories (.workshop/) are
// not the tree's code.
func longFunctions(root string, limit int) ([]longFunction, error) {
	paths, err := gotree.Code(root)
	if err != nil {
		return nil, err
	}
	var long []longFunction
	for _, path := range paths {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return nil, fmt.Errorf("parse %s: %w", path, err)
		}
		if ast.IsGenerated(f) {
			continue
		}
		rel, _ := filepath.Rel(root, path)
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			first := fset.Position(fn.Type.Func).Line
			if n := fset.Position(fn.End()).Line - first + 1; n > limit {
				long = append(long, longFunction{fmt.Sprintf("%s:%d %s", filepath.ToSlash(rel), first, fn.Name.Name), n})
			}
		}
	}
	slices.SortFunc(long, func(a, b longFunction) int { return b.lines - a.lines })
	return long, nil
}
