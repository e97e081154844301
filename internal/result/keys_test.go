package result

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// declaredKeys are the Key constants of keys.go, read from its source so
// the list is not written a second time, plus the parameterised keys a
// bench writes (a fleet of up to 16 replicas, each stop-drill phase).
func declaredKeys(t *testing.T) map[Key]bool {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "keys.go", nil, 0)
	if err != nil {
		t.Fatalf("reading the declared keys: %v", err)
	}
	keys := map[Key]bool{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			v := s.(*ast.ValueSpec)
			if id, ok := v.Type.(*ast.Ident); !ok || id.Name != "Key" {
				continue
			}
			val, err := strconv.Unquote(v.Values[0].(*ast.BasicLit).Value)
			if err != nil {
				t.Fatalf("key %s: %v", v.Names[0].Name, err)
			}
			keys[Key(val)] = true
		}
	}
	for n := 1; n <= 16; n++ {
		keys[ShareOfReplica(n)] = true
	}
	for _, p := range Phases {
		for _, k := range []Key{RPSIn(p), HitRatioIn(p), RedisLoadsPerTTLIn(p), CopiesPerItemIn(p)} {
			keys[k] = true
		}
	}
	return keys
}

// TestReferenceRunsUseOnlyDeclaredKeys: every step-specific figure of the
// committed reference runs loads under a declared key, with the value the
// file holds (the JSON shape did not change when the keys became typed).
func TestReferenceRunsUseOnlyDeclaredKeys(t *testing.T) {
	declared := declaredKeys(t)
	files, _ := filepath.Glob("../../results/reference/*.json")
	if len(files) == 0 {
		t.Fatal("no reference runs in results/reference")
	}
	read := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var r Result
		var raw struct {
			Runs []struct {
				Extra map[string]float64 `json:"extra"`
			} `json:"runs"`
		}
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if err := json.Unmarshal(b, &raw); err != nil || len(raw.Runs) != len(r.Runs) {
			t.Fatalf("%s: read untyped: %v", f, err)
		}
		for i, x := range r.Runs {
			for k, v := range x.Extra {
				read++
				if !declared[k] {
					t.Errorf("%s, %s: key %q is declared nowhere in keys.go", filepath.Base(f), x.Variant, k)
				}
				if raw.Runs[i].Extra[string(k)] != v {
					t.Errorf("%s, %s: %s reads %v typed, %v untyped", filepath.Base(f), x.Variant, k, v, raw.Runs[i].Extra[string(k)])
				}
			}
		}
	}
	if read == 0 {
		t.Error("the reference runs hold no step-specific figure: the test read nothing")
	}
}

// TestExtraKeysAreNeverLiterals: Go converts an untyped string to a Key
// silently, so a typed map alone would still let x.Extra["persisted_per_sec"]
// compile and read 0. No Go file of the tree indexes Extra, or fills a
// map of Keys, with a literal: only keys.go spells them.
func TestExtraKeysAreNeverLiterals(t *testing.T) {
	root := "../.."
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || filepath.Base(path) == "keys.go" {
			return nil
		}
		for _, at := range literalKeys(t, path) {
			t.Errorf("%s: a step-specific figure's key written as a literal; use its constant in internal/result/keys.go", at)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// literalKeys are the places in file path where a string literal stands
// for a Key: Extra[...] or a map[Key]/map[result.Key] literal's key.
func literalKeys(t *testing.T, path string) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, 0)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var at []string
	isLit := func(e ast.Expr) bool { b, ok := e.(*ast.BasicLit); return ok && b.Kind == token.STRING }
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IndexExpr:
			if sel, ok := n.X.(*ast.SelectorExpr); ok && sel.Sel.Name == "Extra" && isLit(n.Index) {
				at = append(at, fset.Position(n.Pos()).String())
			}
		case *ast.CompositeLit:
			if m, ok := n.Type.(*ast.MapType); ok && isKeyType(m.Key) {
				for _, e := range n.Elts {
					if kv, ok := e.(*ast.KeyValueExpr); ok && isLit(kv.Key) {
						at = append(at, fset.Position(kv.Pos()).String())
					}
				}
			}
		}
		return true
	})
	return at
}

func isKeyType(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name == "Key"
	case *ast.SelectorExpr:
		x, ok := e.X.(*ast.Ident)
		return ok && x.Name == "result" && e.Sel.Name == "Key"
	}
	return false
}
