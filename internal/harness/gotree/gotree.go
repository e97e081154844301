// Package gotree lists the repository's own Go files for the tests that
// read the code (a sentence past the catalogue, an import across houses, a
// function over a screen, a key spelt as a literal, a variable read outside
// its reader): one walk, so every such test agrees on what the tree's code is.
// It also reads the constants one file declares, for what takes a list of
// names from its declaration instead of writing it a second time.
package gotree

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
)

// Files are the Go files under root, test files included, in lexical order.
// Below root, testdata/ (mutants are wrong on purpose, answers are whole
// files), node_modules/ and hidden directories (.git, .workshop) are not
// the tree's code and are not entered.
func Files(root string) ([]string, error) {
	return walk(root, func(string) bool { return true })
}

// Code is Files without the _test.go files: the code a build ships.
func Code(root string) ([]string, error) {
	return walk(root, func(path string) bool { return !strings.HasSuffix(path, "_test.go") })
}

func walk(root string, keep func(path string) bool) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && notCode(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") && keep(path) {
			out = append(out, path)
		}
		return nil
	})
	return out, err
}

// notCode says whether a directory below the root holds no code of the tree.
func notCode(name string) bool {
	return name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".")
}

// Consts are the constant specs the Go file at path declares, in order,
// with their comments: k6's routes.js is generated from
// internal/given/routes' and the figures' keys are checked against
// internal/harness/result's, each read from its declaration.
func Consts(path string) ([]*ast.ValueSpec, error) {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	var specs []*ast.ValueSpec
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
			for _, s := range g.Specs {
				specs = append(specs, s.(*ast.ValueSpec))
			}
		}
	}
	return specs, nil
}
