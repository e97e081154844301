package scenario

import (
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// extensions are the declarations a solution may hold beyond its
// exercise's surface, each with why it cannot live with the given code.
var extensions = map[string]string{
	// Step 10's replicas forget a changed item in step 5's memory tier; only
	// the answer's own type can, since its fields are the answer.
	"05-burst-cache Cache.Forget": "step 10",
}

// A solution holds only the answer: solutions/NN declares exactly what
// the build-tag swap hands the step in place of exercise.go (same names
// as the exercise, same signatures), plus unexported helpers of its own.
// Given code copied into a solution — a constructor, a wrapper a later
// step needs, a constant the step already declares — is a declaration
// the exercise does not have, and SOLUTION=1 would run that copy instead
// of what the learner is given.
func TestSolutionsHoldOnlyTheAnswer(t *testing.T) {
	for _, m := range manifest() {
		if !m.Exercise {
			continue
		}
		step := filepath.Base(m.Dir())
		t.Run(step, func(t *testing.T) {
			dir := filepath.Join(root, m.Dir())
			exercise := declsOf(t, filepath.Join(dir, "exercise.go"))
			var solution, given decls = decls{}, decls{}
			sources := goFiles(t, filepath.Join(root, m.SolutionDir()))
			for _, f := range sources {
				solution.add(declsOf(t, f))
			}
			swap, pkg := parseSwap(t, filepath.Join(dir, "solution_swap.go"), "github.com/peakload/workshop/"+m.SolutionDir(), packageName(t, sources[0]))
			for _, f := range goFiles(t, dir) {
				if base := filepath.Base(f); base != "exercise.go" && base != "solution_swap.go" {
					given.add(declsOf(t, f))
				}
			}

			// What the swap declares, the exercise declares alike.
			for name, target := range swap.aliases {
				want, ok := exercise[name]
				switch {
				case !ok:
					t.Errorf("solution_swap.go declares %s, which exercise.go does not", name)
				case target.kind == "func" && solution[target.name].sig != want.sig:
					t.Errorf("%s is %s in exercise.go but %s.%s is %s", name, want.sig, pkg, target.name, solution[target.name].sig)
				}
				if target.kind == "type" {
					sameMethods(t, step, name, target.name, exercise, solution)
				}
			}
			for name, sig := range swap.methods {
				if exercise[name].sig != sig {
					t.Errorf("solution_swap.go's %s is %s; exercise.go's is %q", name, sig, exercise[name].sig)
				}
			}

			// What the solution exports, the swap uses.
			for name := range solution {
				if strings.Contains(name, ".") || !ast.IsExported(name) || swap.uses[name] {
					continue
				}
				t.Errorf("%s/ declares %s, which is not the answer (solution_swap.go does not use it): "+
					"what a learner is given lives once, in internal/ or beside exercise.go under both tags", m.SolutionDir(), name)
			}
			// Its helpers are its own, not copies of given code.
			for name := range solution {
				if _, copied := given[name]; copied && !ast.IsExported(name) {
					t.Errorf("%s/ declares %s, as the step's given files do: a copy of given code", m.SolutionDir(), name)
				}
			}
		})
	}
}

// sameMethods: a type the swap aliases has the exercise's methods, with
// the same signatures, and exports no other (extensions aside).
func sameMethods(t *testing.T, step, local, target string, exercise, solution decls) {
	t.Helper()
	for name, d := range solution {
		recv, method, ok := strings.Cut(name, ".")
		if !ok || recv != target || !ast.IsExported(method) {
			continue
		}
		mine, declared := exercise[local+"."+method]
		switch {
		case declared && mine.sig != d.sig:
			t.Errorf("%s.%s is %s in exercise.go but %s in the solution", local, method, mine.sig, d.sig)
		case !declared && extensions[step+" "+local+"."+method] == "":
			t.Errorf("the solution's %s has a method %s that exercise.go's %s lacks: given code belongs in internal/", target, method, local)
		}
	}
	for name := range exercise {
		if recv, method, ok := strings.Cut(name, "."); ok && recv == local {
			if _, ok := solution[target+"."+method]; !ok {
				t.Errorf("exercise.go's %s has a method %s that the solution's %s lacks", local, method, target)
			}
		}
	}
}

// decl is one top-level declaration: its kind and, for a function or
// method, its signature without parameter names.
type decl struct{ kind, sig string }

// decls are a file's or a package's declarations by name ("T.m" for a
// method of T).
type decls map[string]decl

func (d decls) add(other decls) {
	for k, v := range other {
		d[k] = v
	}
}

func declsOf(t *testing.T, path string) decls {
	t.Helper()
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := decls{}
	for _, d := range file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			name := d.Name.Name
			if d.Recv != nil {
				name = recvName(d.Recv.List[0].Type) + "." + name
			}
			out[name] = decl{"func", signature(fset, d.Type)}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					out[s.Name.Name] = decl{kind: "type"}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						out[n.Name] = decl{kind: "value"}
					}
				}
			}
		}
	}
	return out
}

func recvName(e ast.Expr) string {
	if star, ok := e.(*ast.StarExpr); ok {
		e = star.X
	}
	return e.(*ast.Ident).Name
}

// signature prints a function type's parameter and result types, names
// dropped: "(context.Context, string) ([]byte, error)".
func signature(fset *token.FileSet, ft *ast.FuncType) string {
	list := func(fl *ast.FieldList) string {
		var types []string
		if fl != nil {
			for _, f := range fl.List {
				var b strings.Builder
				printer.Fprint(&b, fset, f.Type)
				for range max(1, len(f.Names)) {
					types = append(types, b.String())
				}
			}
		}
		return "(" + strings.Join(types, ", ") + ")"
	}
	return list(ft.Params) + " " + list(ft.Results)
}

// swapFile is what a solution_swap.go hands the step: aliases (var X =
// pkg.Y, type X = pkg.Y), methods forwarding to the solution, and every
// name of the solution it uses.
type swapFile struct {
	aliases map[string]target
	methods map[string]string // "T.m" → signature
	uses    map[string]bool
}

type target struct{ kind, name string }

func parseSwap(t *testing.T, path, importPath, name string) (swapFile, string) {
	t.Helper()
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg := ""
	for _, imp := range file.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == importPath {
			pkg = name
			if imp.Name != nil {
				pkg = imp.Name.Name
			}
		}
	}
	s := swapFile{aliases: map[string]target{}, methods: map[string]string{}, uses: map[string]bool{}}
	ast.Inspect(file, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == pkg {
				s.uses[sel.Sel.Name] = true
			}
		}
		return true
	})
	for _, d := range file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil {
				s.methods[recvName(d.Recv.List[0].Type)+"."+d.Name.Name] = signature(fset, d.Type)
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch spec := spec.(type) {
				case *ast.TypeSpec:
					if sel, ok := spec.Type.(*ast.SelectorExpr); ok {
						s.aliases[spec.Name.Name] = target{"type", sel.Sel.Name}
					}
				case *ast.ValueSpec:
					for i, n := range spec.Names {
						if sel, ok := spec.Values[i].(*ast.SelectorExpr); ok {
							s.aliases[n.Name] = target{"func", sel.Sel.Name}
						}
					}
				}
			}
		}
	}
	return s, pkg
}

func packageName(t *testing.T, path string) string {
	t.Helper()
	file, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	return file.Name.Name
}

func goFiles(t *testing.T, dir string) []string {
	t.Helper()
	all, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	return slices.DeleteFunc(all, func(f string) bool { return strings.HasSuffix(f, "_test.go") })
}
