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

	"github.com/peakload/workshop/internal/harness/gotree"
)

// englishWord is a run of three ASCII letters left in a format once its
// verbs are gone: a word, which under PEAKLOAD_LANG=vi would print English.
var (
	formatVerb  = regexp.MustCompile(`%[-+#0-9.]*[a-zA-Z%]|\\[nt]`)
	englishWord = regexp.MustCompile(`[A-Za-z]{3,}`)
)

// TestMessagesGoThroughTheCatalogue: what doctor, progress, compare, audit,
// grade and the bench table print to a learner, and the errors they
// return, come from the catalogue (internal/given/messages; messagestest.Check
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
			for _, arg := range literalArgs(fn, func(pkg, _ string) bool { return pkg == "fmt" }) {
				if !strings.Contains(strings.TrimSpace(arg.text), " ") {
					continue // one token: a path or a name (step-%d.json, LATENCY=%gms), not a sentence
				}
				if w := englishWord.FindString(formatVerb.ReplaceAllString(arg.text, " ")); w != "" {
					t.Errorf("%s: %s prints %q (%q) past the catalogue: give it a message key", fset.Position(arg.pos), fn.Name.Name, arg.text, w)
				}
			}
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
		paths, err := gotree.Code(filepath.Join(root, dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range paths {
			rel, _ := filepath.Rel(root, path)
			rel = filepath.ToSlash(rel)
			if _, ok := notForAPerson[filepath.ToSlash(filepath.Dir(rel))]; ok {
				continue
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				t.Fatal(err)
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
	for _, arg := range literalArgs(fn, func(pkg, name string) bool { return slices.Contains(sayingCalls[pkg], name) }) {
		if arg.call == "Errorf" && strings.Contains(arg.text, "%w") {
			continue
		}
		if len(englishWord.FindAllString(typedAsIs.ReplaceAllString(formatVerb.ReplaceAllString(arg.text, " "), " "), -1)) >= 2 {
			out = append(out, said{arg.pos, arg.text})
		}
	}
	return out
}

// literalArg is a string literal passed to a package's function: where it
// stands, the function's name and the literal unquoted.
type literalArg struct {
	pos        token.Pos
	call, text string
}

// literalArgs are the string literals fn passes to the package-level calls
// (pkg.Name(…)) that match accepts: the two catalogue tests differ only in
// which calls reach a person.
func literalArgs(fn *ast.FuncDecl, match func(pkg, name string) bool) []literalArg {
	var out []literalArg
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
		if !ok || !match(pkg.Name, sel.Sel.Name) {
			return true
		}
		for _, arg := range call.Args {
			if lit, ok := arg.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				text, _ := strconv.Unquote(lit.Value)
				out = append(out, literalArg{lit.Pos(), sel.Sel.Name, text})
			}
		}
		return true
	})
	return out
}
