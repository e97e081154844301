package houserules

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"testing"

	"github.com/peakload/workshop/internal/harness/gotree"
)

// sayers are the calls that say a message: the catalogue's (T, Words,
// Restate) and the audit's own english(key).
var sayers = map[string]bool{"T": true, "Words": true, "Restate": true, "english": true}

// TestNoPackageVariableSaysAMessage: a package's words (its texts.go) are
// added to the catalogue by its init, which runs after every package-level
// variable is set, so a variable set by saying a message would hold the
// key, not the words. Say it in a function instead.
func TestNoPackageVariableSaysAMessage(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	paths, err := gotree.Code(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range paths {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(fmt.Errorf("parse %s: %w", path, err))
		}
		for _, decl := range f.Decls {
			if g, ok := decl.(*ast.GenDecl); ok && g.Tok == token.VAR {
				for _, at := range sayings(g) {
					rel, _ := filepath.Rel(root, fset.Position(at).Filename)
					t.Errorf("%s:%d: a package-level variable says a message before init adds the package's words", filepath.ToSlash(rel), fset.Position(at).Line)
				}
			}
		}
	}
}

// sayings are where a declaration calls a sayer outside a function literal
// (a function literal runs later, when the words are there).
func sayings(g *ast.GenDecl) []token.Pos {
	var at []token.Pos
	ast.Inspect(g, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			switch fn := n.Fun.(type) {
			case *ast.Ident:
				if sayers[fn.Name] {
					at = append(at, n.Pos())
				}
			case *ast.SelectorExpr:
				if sayers[fn.Sel.Name] {
					at = append(at, n.Pos())
				}
			}
		}
		return true
	})
	return at
}
