package messagestest

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/peakload/workshop/internal/given/messages"
)

// The catalogue's tables live beside the packages that say them
// (messages.Add), so no one test sees them all: each package that adds a
// table runs Check, which holds every table its test binary links to the
// catalogue's rules, wherever the table lives.

// verbs are the formatting verbs of a message, in order: a translation
// that drops or reorders one would print %!d(MISSING) or the wrong figure.
var verbs = regexp.MustCompile(`%[-+#0-9.]*[a-zA-Z%]`)

// kept are, by key prefix, the words a table's Vietnamese keeps besides
// the glossary's, for the tables whose every English word is said in
// Vietnamese (issue 34 §3).
var kept = map[string][]string{
	// make audit's: HTTP's own names (methods, headers, their values), the
	// audit's flags and the code's names, units, and the words the
	// glossary's rows hold in their second column only; "so" is Vietnamese
	// too ("so với", compared with), written in ASCII letters.
	"table.audit.": auditNames,
	// make report's page: the paths, commands and variables it names, units,
	// and two words of the charts' legend the captions point at (the charts
	// stay English: the decks draw the same ones).
	"report.": strings.Fields(`
		results step reference latest json make bench drill code SOLUTION GOMAXPROCS CPU CPUs UTC VUs
		DB Redis ms req public claim peakload
		warm up drain`),
}

// notPage are the CLI's own lines about `make report` (where it wrote the
// page, that there is nothing to show): not the page, so not held to its words.
var notPage = []string{"report.none", "report.wrote", "report.slides"}

var auditNames = strings.Fields(`
	GET POST HTTP JSON ETag If None Match Content Encoding Type Accept Cache Control Last Modified Expires Vary Age
	Connection close Retry After gzip br CDN docs scaling md README
	metrics queries URL cold change post process cpu seconds total
	MiB ms req CPU max request response connection server timeout route path query
	so`)

// Check holds every registered message (messages.Lines) to the rules: a
// Vietnamese message for each key, with the English's verbs in order;
// Vietnamese letters precomposed (text/tabwriter counts a combining mark
// as a column); no variant docs/vi/forbidden.txt rules out; a table.*
// format holds a word (Restate would take a bare figure for it); two
// note.* or table.* keys with one English say it alike in Vietnamese
// (Restate finds a key back from its English); and the tables of kept say
// every English word in Vietnamese but the glossary's and their own.
func Check(t *testing.T) {
	t.Helper()
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	rules, err := ForbiddenRules(root)
	if err != nil {
		t.Fatal(err)
	}
	glossary := map[string]map[string]bool{}
	for prefix, names := range kept {
		if glossary[prefix], err = GlossaryWords(root, names...); err != nil {
			t.Fatal(err)
		}
	}
	seen := map[string]messages.Line{}
	for _, w := range messages.Lines() {
		checkLine(t, w, rules, glossary)
		if !strings.HasPrefix(w.Key, "note.") && !strings.HasPrefix(w.Key, "table.") {
			continue
		}
		if o, ok := seen[w.En]; ok && o.Vi != w.Vi {
			t.Errorf("%q and %q are both %q in English, %q and %q in Vietnamese", o.Key, w.Key, w.En, o.Vi, w.Vi)
		}
		seen[w.En] = w
	}
}

// checkLine holds one message to Check's rules.
func checkLine(t *testing.T, w messages.Line, rules []Rule, glossary map[string]map[string]bool) {
	t.Helper()
	if w.Vi == "" {
		t.Errorf("%q has no Vietnamese message", w.Key)
	}
	if a, b := verbs.FindAllString(w.En, -1), verbs.FindAllString(w.Vi, -1); strings.Join(a, "\x00") != strings.Join(b, "\x00") {
		t.Errorf("%q: English verbs %q, Vietnamese %q", w.Key, a, b)
	}
	if i := strings.IndexFunc(w.Vi, func(r rune) bool { return unicode.Is(unicode.Mn, r) }); i >= 0 {
		t.Errorf("%q has a combining mark at byte %d: %q", w.Key, i, w.Vi)
	}
	for _, broken := range Broken(rules, w.Vi) {
		t.Errorf("%s: %s: %q", w.Key, broken, w.Vi)
	}
	if strings.HasPrefix(w.Key, "table.") && !strings.ContainsFunc(verbs.ReplaceAllString(w.En, ""), unicode.IsLetter) {
		t.Errorf("%q: %q holds no word", w.Key, w.En)
	}
	for prefix, words := range glossary {
		if !strings.HasPrefix(w.Key, prefix) || slices.Contains(notPage, w.Key) {
			continue
		}
		e, v := verbs.ReplaceAllString(w.En, " "), verbs.ReplaceAllString(w.Vi, " ")
		if left := EnglishLeft(e, v, words); len(left) > 0 {
			t.Errorf("%s: %q keeps the English %q", w.Key, w.Vi, left)
		}
	}
}

// moduleRoot is the directory of go.mod above the test's: docs/vi's rules
// are read from there, whichever package runs Check.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("messagestest: no go.mod above the working directory")
		}
		dir = parent
	}
}
