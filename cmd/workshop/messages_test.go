package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// englishWord is a run of three ASCII letters left in a format once its
// verbs are gone: a word, which under PEAKLOAD_LANG=vi would print English.
var (
	formatVerb  = regexp.MustCompile(`%[-+#0-9.]*[a-zA-Z%]|\\[nt]`)
	englishWord = regexp.MustCompile(`[A-Za-z]{3,}`)
)

// TestMessagesGoThroughTheCatalogue: what doctor, progress, compare, audit,
// grade and the bench table print to a learner, and the errors they
// return, come from internal/given/messages (which TestEveryKeyIsTranslated
// keeps bilingual): no fmt call in them carries a word of its own. Formats
// of figures and separators only ("%s\t%d"), and single tokens (paths),
// pass. The markdown progress, grade's job summary and a lead's folder
// comparison speak the reader's language too (English unless
// PEAKLOAD_LANG says otherwise). The audit's probes write their findings
// from catalogue keys too (in English, said again at print time). Kept
// out: rerun's command line, typed the same in every language; the
// slowloris probe's HTTP lines, the burst's status errors ("HTTP 503") and
// its baseline's and recovery windows' run names (identifiers, as a variant's name is).
func TestMessagesGoThroughTheCatalogue(t *testing.T) {
	files := map[string][]string{ // file → functions exempt
		"doctor.go":   nil,
		"compare.go":  nil,
		"progress.go": nil,
		"audit.go":    nil,
		"grade.go":    nil,
		filepath.Join("..", "..", "internal", "harness", "audit", "audit.go"):           nil,
		filepath.Join("..", "..", "internal", "harness", "audit", "burst.go"):           {"recoverAfter", "baseline", "burstVariant"},
		filepath.Join("..", "..", "internal", "harness", "audit", "coldkey.go"):         nil,
		filepath.Join("..", "..", "internal", "harness", "audit", "etag.go"):            nil,
		filepath.Join("..", "..", "internal", "harness", "audit", "headers.go"):         nil,
		filepath.Join("..", "..", "internal", "harness", "audit", "shell.go"):           {"requestLine", "headerLine"},
		filepath.Join("..", "..", "internal", "harness", "comparison", "comparison.go"): {"rerun"},
		filepath.Join("..", "..", "internal", "harness", "result", "result.go"):         {"Measure", "settle", "MeasureMore", "Write", "WriteIn"},
	}
	fset := token.NewFileSet()
	for name, exempt := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || slices.Contains(exempt, fn.Name.Name) {
				continue
			}
			ast.Inspect(fn, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if pkg, ok := sel.X.(*ast.Ident); !ok || pkg.Name != "fmt" {
					return true
				}
				for _, arg := range call.Args {
					lit, ok := arg.(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						continue
					}
					s, _ := strconv.Unquote(lit.Value)
					if !strings.Contains(strings.TrimSpace(s), " ") {
						continue // one token: a path or a name (step-%d.json, LATENCY=%gms), not a sentence
					}
					if w := englishWord.FindString(formatVerb.ReplaceAllString(s, " ")); w != "" {
						t.Errorf("%s: %s prints %q (%q) past the catalogue: give it a message key", fset.Position(lit.Pos()), fn.Name.Name, s, w)
					}
				}
				return true
			})
		}
	}
}
