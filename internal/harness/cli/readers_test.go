package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/peakload/workshop/internal/harness/gotree"
)

// readers is every environment variable the tree reads, and the file that
// reads it: a variable has one reader, in the package that owns it. Three
// kinds, and where a new one goes:
//
//   - the learner's configuration: FromEnv's parse (config.go), with the
//     stack's part in stack.Parse and dbaddr.Parse — add it to Config;
//   - a child's contract, set by the parent for a step server or a test
//     binary it re-runs: read in the package that owns the child;
//   - a test-only knob (PEAKLOAD_SEED…): one helper reads it.
//
// The team verbs' flags default to the make variable of their name, read
// beside the flag (probe's and audit's shared ones in serviceflags.go). "*" is a reader given os.Getenv itself, to parse with.
var readers = map[string][]string{
	"*": {"internal/harness/cli/config.go", "internal/given/dbaddr/dbaddr.go", "internal/harness/stacktest/stacktest.go"},

	// Outside the one parse: where results go (also set for test-latency's
	// children) and the language, which messages reads before anything runs.
	"PEAKLOAD_RESULTS": {"internal/harness/cli/config.go"},
	"PEAKLOAD_LANG":    {"internal/given/messages/messages.go"},
	"LANG":             {"internal/given/messages/messages.go"},

	// A child's contract.
	"PEAKLOAD_ADDR":            {"internal/given/dbaddr/dbaddr.go"},
	"PEAKLOAD_MUTEX_PROFILE":   {"internal/given/server/server.go"},
	"PEAKLOAD_PG_POOL":         {"internal/given/catalog/catalog.go"},
	"PEAKLOAD_SHELL":           {"steps/00-ceilings/main.go"},
	"FRAMEWORK":                {"steps/09-frameworks/main.go"},
	"PG_POOL":                  {"steps/09-frameworks/main.go"},
	"PEAKLOAD_REPLICA":         {"steps/10-scale-out/main.go"},
	"PEAKLOAD_INVALIDATION":    {"steps/10-scale-out/main.go"},
	"PEAKLOAD_LISTEN":          {"steps/10-scale-out/main.go"},
	"PEAKLOAD_MONGO_BIN":       {"internal/harness/stack/native.go"},
	"PEAKLOAD_NO_PIN":          {"internal/harness/proc/proc.go"},
	"K6":                       {"internal/harness/load/k6.go"},
	"PEAKLOAD_STEP06_SERVE":    {"steps/06-buffered-writes/process_test.go"},
	"PEAKLOAD_CRASHTEST_CHILD": {"internal/harness/crashtest/crashtest.go"},

	// Test-only knobs.
	"PEAKLOAD_SEED":     {"internal/harness/testseed/testseed.go"},
	"PEAKLOAD_SCHEDULE": {"steps/08-profiling/model_test.go"},

	// The verbs' flag defaults (make probe URL=…), and who ran progress.
	"REF": {"cmd/workshop/report.go"}, "FORMAT": {"cmd/workshop/progress.go"},
	"GRADE_BASE": {"cmd/workshop/grade.go"}, "GRADE_STEPS": {"cmd/workshop/grade.go"},
	"GITHUB_STEP_SUMMARY": {"cmd/workshop/grade.go"},
	"GITHUB_ACTOR":        {"cmd/workshop/progress.go"}, "USER": {"cmd/workshop/progress.go"},
	"REQUESTS": {"cmd/workshop/probe.go"}, "PER_REQUEST": {"cmd/workshop/probe.go"},
	"POST": {"cmd/workshop/audit.go"}, "COLD": {"cmd/workshop/audit.go"}, "CHANGE": {"cmd/workshop/audit.go"},
	"QUERIES": {"cmd/workshop/audit.go"}, "BURST_POST": {"cmd/workshop/audit.go"}, "BODY": {"cmd/workshop/audit.go"},
	"COLD_N": {"cmd/workshop/audit.go"}, "SLOWLORIS": {"cmd/workshop/audit.go"}, "BURST": {"cmd/workshop/audit.go"},
	// go's own: step 4's check builds the Group with -race, through the gate's overlay.
	"GOFLAGS": {"steps/04-singleflight/check_test.go"},
	// Probe's and audit's shared -url, -metrics, -allow-remote.
	"URL": {"cmd/workshop/serviceflags.go"}, "METRICS": {"cmd/workshop/serviceflags.go"},
	"ALLOW_REMOTE": {"cmd/workshop/serviceflags.go"},
}

// TestEachVariableHasItsOneReader parses every Go file of the tree and
// finds each os.Getenv and os.LookupEnv (a constant's name resolved): a
// read outside the variable's reader fails, as does a reader listed here
// that no longer reads it, so the list stays the tree's.
func TestEachVariableHasItsOneReader(t *testing.T) {
	found := map[string]map[string]bool{} // variable → files reading it
	root := filepath.Join("..", "..", "..")
	paths, err := gotree.Files(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range paths {
		rel, _ := filepath.Rel(root, path)
		names, err := envReads(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			if found[name] == nil {
				found[name] = map[string]bool{}
			}
			found[name][filepath.ToSlash(rel)] = true
		}
	}
	for _, name := range slices.Sorted(maps.Keys(found)) {
		for _, file := range slices.Sorted(maps.Keys(found[name])) {
			switch {
			case slices.Contains(readers[name], file):
			case slices.Contains(Names(), name):
				t.Errorf("%s reads %s, which is configuration: take it from cli.Config, parsed once by FromEnv", file, name)
			default:
				t.Errorf("%s reads %s, whose reader is %v: ask that reader (or, for a new variable, see readers' comment)", file, name, readers[name])
			}
		}
	}
	for name, files := range readers {
		for _, file := range files {
			if !found[name][file] {
				t.Errorf("readers says %s reads %s, and it does not: drop the entry", file, name)
			}
		}
	}
}

// envReads are the variables path reads: each os.Getenv or os.LookupEnv's
// argument, a string literal or a constant of the file; "*" for os.Getenv
// passed as a value, or an argument it cannot resolve (a reader of any name).
func envReads(path string) ([]string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		return nil, err
	}
	consts := map[string]string{}
	ast.Inspect(f, func(n ast.Node) bool {
		if v, ok := n.(*ast.ValueSpec); ok {
			for i, id := range v.Names {
				if i < len(v.Values) {
					if lit, ok := v.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						consts[id.Name], _ = strconv.Unquote(lit.Value)
					}
				}
			}
		}
		return true
	})
	var names []string
	called := map[*ast.SelectorExpr]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok && isEnvRead(sel) && len(n.Args) == 1 {
				called[sel] = true
				names = append(names, argName(n.Args[0], consts))
			}
		case *ast.SelectorExpr:
			if isEnvRead(n) && !called[n] {
				names = append(names, "*")
			}
		}
		return true
	})
	return names, nil
}

func isEnvRead(sel *ast.SelectorExpr) bool {
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "os" && (sel.Sel.Name == "Getenv" || sel.Sel.Name == "LookupEnv")
}

func argName(arg ast.Expr, consts map[string]string) string {
	switch a := arg.(type) {
	case *ast.BasicLit:
		if s, err := strconv.Unquote(a.Value); err == nil {
			return s
		}
	case *ast.Ident:
		if s, ok := consts[a.Name]; ok {
			return s
		}
	}
	return "*"
}
