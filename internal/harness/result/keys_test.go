package result

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/peakload/workshop/internal/harness/gotree"
)

// declaredKeys are the Key constants of keys.go, read from its source so
// the list is not written a second time, plus the parameterised keys a
// bench writes (a fleet of up to 16 replicas, each stop-drill phase).
func declaredKeys(t *testing.T) map[Key]bool {
	t.Helper()
	consts, err := gotree.Consts("keys.go")
	if err != nil {
		t.Fatalf("reading the declared keys: %v", err)
	}
	keys := map[Key]bool{}
	for _, v := range consts {
		if id, ok := v.Type.(*ast.Ident); !ok || id.Name != "Key" {
			continue
		}
		val, err := strconv.Unquote(v.Values[0].(*ast.BasicLit).Value)
		if err != nil {
			t.Fatalf("key %s: %v", v.Names[0].Name, err)
		}
		keys[Key(val)] = true
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
	files, _ := filepath.Glob("../../../results/reference/*.json")
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
// compile and read 0. No Go file of the tree indexes Extra, fills a map of
// Keys or passes a function's Key parameter with a literal: only keys.go
// spells them.
func TestExtraKeysAreNeverLiterals(t *testing.T) {
	files := parseTree(t, filepath.Join("..", "..", ".."))
	self := filepath.Join("..", "..", "..", "internal", "harness", "result")
	takesKey := map[string][]int{} // "dir.name" → the positions of its Key parameters
	for _, f := range files {
		for _, d := range f.ast.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil {
				if at := keyParams(fn.Type); len(at) > 0 {
					takesKey[f.dir+"."+fn.Name.Name] = at
					if f.dir == self { // this package's, called as result.Name elsewhere
						takesKey["result."+fn.Name.Name] = at
					}
				}
			}
		}
	}
	for _, f := range files {
		if filepath.Base(f.path) == "keys.go" && f.dir == self {
			continue
		}
		for _, pos := range literalKeys(f, takesKey) {
			t.Errorf("%s: a step-specific figure's key written as a literal; use its constant in internal/harness/result/keys.go", f.fset.Position(pos))
		}
	}
}

type goFile struct {
	path, dir string // dir as walked from this package's: self is internal/harness/result
	fset      *token.FileSet
	ast       *ast.File
}

// parseTree parses every Go file under root but testdata.
func parseTree(t *testing.T, root string) []goFile {
	t.Helper()
	paths, err := gotree.Files(root)
	if err != nil {
		t.Fatal(err)
	}
	var out []goFile
	for _, path := range paths {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, goFile{path, filepath.Dir(path), fset, f})
	}
	return out
}

// keyParams are the positions of ft's parameters typed Key.
func keyParams(ft *ast.FuncType) []int {
	var at []int
	i := 0
	for _, p := range ft.Params.List {
		n := max(len(p.Names), 1)
		for range n {
			if isKeyType(p.Type) {
				at = append(at, i)
			}
			i++
		}
	}
	return at
}

// literalKeys are the places in f where a string literal stands for a
// Key: Extra[...], a map[Key]/map[result.Key] literal's key, or the Key
// argument of a function declared with one.
func literalKeys(f goFile, takesKey map[string][]int) []token.Pos {
	var at []token.Pos
	isLit := func(e ast.Expr) bool { b, ok := e.(*ast.BasicLit); return ok && b.Kind == token.STRING }
	ast.Inspect(f.ast, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IndexExpr:
			if sel, ok := n.X.(*ast.SelectorExpr); ok && sel.Sel.Name == "Extra" && isLit(n.Index) {
				at = append(at, n.Pos())
			}
		case *ast.CompositeLit:
			if m, ok := n.Type.(*ast.MapType); ok && isKeyType(m.Key) {
				for _, e := range n.Elts {
					if kv, ok := e.(*ast.KeyValueExpr); ok && isLit(kv.Key) {
						at = append(at, kv.Pos())
					}
				}
			}
		case *ast.CallExpr:
			name := ""
			switch fn := n.Fun.(type) {
			case *ast.Ident:
				name = f.dir + "." + fn.Name
			case *ast.SelectorExpr:
				if x, ok := fn.X.(*ast.Ident); ok && x.Name == "result" {
					name = "result." + fn.Sel.Name
				}
			}
			for _, i := range takesKey[name] {
				if i < len(n.Args) && isLit(n.Args[i]) {
					at = append(at, n.Args[i].Pos())
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
