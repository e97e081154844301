package k6

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"regexp"
	"slices"
	"strconv"
	"testing"
)

// TestRoutesAgreeWithGo: lib/routes.js declares every route of
// internal/given/routes under the same name with the same path, and no other,
// so a script requests and tags what the Go driver does.
func TestRoutesAgreeWithGo(t *testing.T) {
	goRoutes := map[string]string{}
	f, err := parser.ParseFile(token.NewFileSet(), "../internal/given/routes/routes.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
			for _, s := range g.Specs {
				v := s.(*ast.ValueSpec)
				if lit, ok := v.Values[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					goRoutes[v.Names[0].Name], _ = strconv.Unquote(lit.Value)
				}
			}
		}
	}
	src, err := os.ReadFile("lib/routes.js")
	if err != nil {
		t.Fatal(err)
	}
	jsRoutes := map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^export const (\w+) = '([^']*)';`).FindAllStringSubmatch(string(src), -1) {
		jsRoutes[m[1]] = m[2]
	}
	if len(goRoutes) == 0 {
		t.Fatal("no route read from internal/given/routes/routes.go")
	}
	for _, name := range slices.Sorted(maps.Keys(goRoutes)) {
		if js, ok := jsRoutes[name]; !ok {
			t.Errorf("routes.%s (%q) is not in k6/lib/routes.js", name, goRoutes[name])
		} else if js != goRoutes[name] {
			t.Errorf("%s: Go %q, k6/lib/routes.js %q", name, goRoutes[name], js)
		}
	}
	for name := range jsRoutes {
		if _, ok := goRoutes[name]; !ok {
			t.Errorf("k6/lib/routes.js declares %s, which internal/given/routes does not", name)
		}
	}
}
