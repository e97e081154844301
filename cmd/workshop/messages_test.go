package main

import (
	"cmp"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
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

// sayingCalls are the calls whose string arguments reach a person: what is
// printed, and the errors main prints. An Errorf that wraps (%w) adds
// context to an error that says what failed, and passes.
var sayingCalls = map[string][]string{
	"fmt":    {"Print", "Printf", "Println", "Fprint", "Fprintf", "Fprintln", "Errorf"},
	"log":    {"Print", "Printf", "Println", "Fatal", "Fatalf", "Fatalln", "Panicf"},
	"errors": {"New"},
}

// typedAsIs are the units and header names a line of figures carries in
// both languages (docs/vi/glossary.md keeps req/s): a progress line of the
// load ("  get-cached   10.0s   52000 req   5200 req/s") is figures, not a
// sentence.
var typedAsIs = regexp.MustCompile(`\b(req|ins|inc)(/s)?\b|Retry-After|\(k6\)`)

// notForAPerson are the files, or file:function, whose literals are read by
// a program or are the source's own words, each with why.
var notForAPerson = map[string]string{
	"internal/harness/report":                     "the HTML report is a file, English like the results it draws (its own issue)",
	"internal/harness/probe/probetest":            "fixtures that play a service for tests: HTTP bodies and Prometheus text",
	"internal/harness/balancer/haproxy.go:Config": "HAProxy's configuration file",
	"internal/harness/audit/shell.go:requestLine": "raw HTTP/1.1 lines of the slowloris probe",
	"internal/harness/audit/shell.go:headerLine":  "raw HTTP/1.1 lines of the slowloris probe",
	"cmd/workshop/place.go:printLoadCommands":     "k6 and wrk command lines, typed the same in every language (its sentences are keys)",
	"internal/harness/redisfault":                 "RESP protocol errors of the fault proxy: they end the connection and are never printed",
	"internal/harness/scenario/step06.go:rawBulk": "its row's name, raw InsertMany ×1000, is a variant's name: an identifier",
}

// TestNoLineBypassesTheCatalogue widens TestMessagesGoThroughTheCatalogue
// to every file of cmd/workshop and internal/harness (issue 34 §2): a
// string literal printed, or made into an error, that holds two English
// words or more is a sentence for a person, and must come from
// internal/given/messages, so PEAKLOAD_LANG=vi says it in Vietnamese. One
// word ("fetch %s: %s", "HTTP %d", a path) is a name, not a sentence, and
// passes; so do the files and functions of notForAPerson.
func TestNoLineBypassesTheCatalogue(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	for _, dir := range []string{"cmd/workshop", "internal/harness"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() && d.Name() == "testdata" {
				return cmp.Or(err, filepath.SkipDir)
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			rel, _ := filepath.Rel(root, path)
			rel = filepath.ToSlash(rel)
			if _, ok := notForAPerson[filepath.ToSlash(filepath.Dir(rel))]; ok {
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				return err
			}
			for _, d := range f.Decls {
				if fn, ok := d.(*ast.FuncDecl); ok {
					if _, ok := notForAPerson[rel+":"+fn.Name.Name]; !ok {
						for _, s := range sentencesSaid(fn) {
							t.Errorf("%s: %s says %q past the catalogue: give it a message key (internal/given/messages)", fset.Position(s.pos), fn.Name.Name, s.text)
						}
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

type said struct {
	pos  token.Pos
	text string
}

// sentencesSaid are fn's string literals passed to a sayingCall that hold
// two English words or more, once the formatting verbs are gone.
func sentencesSaid(fn *ast.FuncDecl) []said {
	var out []said
	ast.Inspect(fn, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		pkg, ok := sel.X.(*ast.Ident)
		if !ok || !slices.Contains(sayingCalls[pkg.Name], sel.Sel.Name) {
			return true
		}
		for _, arg := range call.Args {
			lit, ok := arg.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				continue
			}
			s, _ := strconv.Unquote(lit.Value)
			if sel.Sel.Name == "Errorf" && strings.Contains(s, "%w") {
				continue
			}
			if len(englishWord.FindAllString(typedAsIs.ReplaceAllString(formatVerb.ReplaceAllString(s, " "), " "), -1)) >= 2 {
				out = append(out, said{lit.Pos(), s})
			}
		}
		return true
	})
	return out
}
