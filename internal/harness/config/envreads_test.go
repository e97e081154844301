package config

import (
	"fmt"
	"github.com/peakload/workshop/internal/harness/gotree"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// envReaders are the only files that read the environment (issue 35): the
// two processes' configurations, each parsed once into one typed value —
// the CLI's (config.go) and the step server's (internal/given/serverenv) —
// and crashtest's re-exec marker. The marker stays where it is: it is not
// a setting a person types but a test binary telling the copy of itself it
// re-runs which test to be, a contract between two runs of one test,
// written and read in the same fifty lines.
var envReaders = []string{
	"internal/harness/config/config.go",
	"internal/given/serverenv/serverenv.go",
	"internal/harness/crashtest/crashtest.go",
}

// TestOnlyTheConfigurationsReadTheEnvironment walks every Go file of the
// tree (not tests, not testdata) and fails, naming file:line, on a read of
// the environment outside envReaders: a package takes its setting from a
// configuration, as a parameter or a field, instead. Handing os.Environ()
// on to a child process is not a read.
func TestOnlyTheConfigurationsReadTheEnvironment(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	reads, err := walkEnvReads(root)
	if err != nil {
		t.Fatal(err)
	}
	readers := map[string]bool{}
	for _, r := range reads {
		readers[r.file] = true
		if !slices.Contains(envReaders, r.file) {
			t.Errorf("TestOnlyTheConfigurationsReadTheEnvironment: %s reads the environment (%s): read the variable in internal/harness/config/config.go (the CLI) or internal/given/serverenv (a step server), and pass the value down", r, r.call)
		}
	}
	for _, file := range envReaders {
		if !readers[file] {
			t.Errorf("TestOnlyTheConfigurationsReadTheEnvironment: envReaders lists %s, which reads no environment: drop it", file)
		}
	}
}

// TestTheWalkFindsPlantedReads: the walk sees each form of read, by any
// import name, at its line, and not os.Environ() handed on.
func TestTheWalkFindsPlantedReads(t *testing.T) {
	reads, err := fileEnvReads(filepath.Join("testdata", "planted", "planted.go"), "planted.go")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range reads {
		got = append(got, r.String()+" "+r.call)
	}
	want := []string{"planted.go:10 os.Getenv", "planted.go:12 os.LookupEnv", "planted.go:14 os.ExpandEnv",
		"planted.go:16 syscall.Getenv", "planted.go:18 os.Getenv"}
	if !slices.Equal(got, want) {
		t.Errorf("TestTheWalkFindsPlantedReads: found %q\nwant %q", got, want)
	}
}

// envRead is one read of the environment: where, and which function.
type envRead struct {
	file string // slash-separated, from the tree's root
	line int
	call string // os.Getenv…
}

func (r envRead) String() string { return fmt.Sprintf("%s:%d", r.file, r.line) }

// readFuncs are the functions that read the environment, by package path.
var readFuncs = map[string][]string{"os": {"Getenv", "LookupEnv", "ExpandEnv"}, "syscall": {"Getenv"}}

// walkEnvReads is every read in root's Go files, tests and testdata aside.
func walkEnvReads(root string) ([]envRead, error) {
	files, err := gotree.Code(root)
	if err != nil {
		return nil, err
	}
	var reads []envRead
	for _, path := range files {
		rel, _ := filepath.Rel(root, path)
		found, err := fileEnvReads(path, filepath.ToSlash(rel))
		if err != nil {
			return nil, err
		}
		reads = append(reads, found...)
	}
	return reads, nil
}

// fileEnvReads finds, in one file, each reference to a reading function —
// a call, or the function handed on as a value — under whatever name the
// file imports its package.
func fileEnvReads(path, name string) ([]envRead, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	local := map[string]string{} // the name a file uses for a package → its path
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if _, ok := readFuncs[p]; !ok {
			continue
		}
		n := p
		if imp.Name != nil {
			n = imp.Name.Name
		}
		local[n] = p
	}
	var reads []envRead
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if x, ok := sel.X.(*ast.Ident); ok && slices.Contains(readFuncs[local[x.Name]], sel.Sel.Name) {
			reads = append(reads, envRead{file: name, line: fset.Position(sel.Pos()).Line, call: local[x.Name] + "." + sel.Sel.Name})
		}
		return true
	})
	return reads, nil
}
