// Package messages is how the CLI speaks to a person, in English and in
// Vietnamese (issue 24): the workshop is taught in Vietnamese rooms, about
// Vietnamese articles. It holds the catalogue and its mechanism (T, Use,
// Restate); the words live beside the code that says them, each package's
// texts.go, English beside Vietnamese, added here at init (Add). Only words
// meant for a reader are messages; what is stored (results JSON) stays
// English, so a run recorded in one language reads the same in the other.
// `make docs` writes a step's generated README region in its file's
// language from these same words.
//
// The language is chosen once, by the process's configuration: PEAKLOAD_LANG
// (vi or en) wins, else LANG=vi_VN… selects Vietnamese (Parse); English is
// the default. This package reads no environment: the CLI's configuration
// (internal/harness/config.FromEnv) and the step server's
// (internal/given/serverenv.Load) parse the two variables with the rest and
// call Use.
package messages

import (
	"fmt"
	"os"
	"slices"
	"strings"
)

// Line is one key's message in English and in Vietnamese, side by side:
// a table of Lines keeps both languages of every key by construction.
type Line struct{ Key, En, Vi string }

// Add puts side-by-side tables into the catalogue. A package keeps the
// words it says beside its code and adds them from its init, so a key is
// registered before that package, or any that imports it, says it. A key
// added twice panics: two tables would otherwise race for one key.
func Add(tables ...[]Line) {
	for _, table := range tables {
		for _, w := range table {
			if _, dup := catalogue[English][w.Key]; dup {
				panic("messages: key " + w.Key + " added twice")
			}
			catalogue[English][w.Key], catalogue[Vietnamese][w.Key] = w.En, w.Vi
			registered = append(registered, w)
		}
	}
}

// registered is every Line added, in order: Lines gives the tests a copy.
var registered []Line

// Lines is every Line this process has registered: the catalogue's tests
// (messagestest.Check) hold each table to the catalogue's rules.
func Lines() []Line { return slices.Clone(registered) }

// Lang is a language of the catalogue.
type Lang string

const (
	English    Lang = "en"
	Vietnamese Lang = "vi"
)

// StallMark is the line bubble.Stalled logs before it fails a test that
// waited on a real service past a generous bound: `make step-N check` reads
// it to say "no verdict, run again" instead of "failed", and does not print
// it. It is not a sentence, so it is not translated.
const StallMark = "peakload:stalled-no-verdict"

// current is set once, at start-up, by the configuration's parse: every
// line of one run speaks the same language.
var current = English

// Parse picks the language from PEAKLOAD_LANG, then LANG ("vi_VN.UTF-8").
// An explicit PEAKLOAD_LANG=en keeps English under a Vietnamese LANG.
func Parse(peakload, lang string) Lang {
	if v := strings.ToLower(strings.TrimSpace(peakload)); v != "" {
		if strings.HasPrefix(v, "vi") {
			return Vietnamese
		}
		return English
	}
	if strings.HasPrefix(strings.ToLower(lang), "vi") {
		return Vietnamese
	}
	return English
}

// Current is the language of this run.
func Current() Lang { return current }

// Asked is the language env's PEAKLOAD_LANG and LANG ask for (Parse), or,
// when neither is set, the one in use: a configuration parsed in a test
// that chose its language (Use) keeps that test's. env is the
// configuration's reader (internal/harness/config, internal/given/serverenv):
// this package reads no environment of its own.
func Asked(env func(string) string) Lang {
	peakload, lang := env("PEAKLOAD_LANG"), env("LANG")
	if peakload == "" && lang == "" {
		return current
	}
	return Parse(peakload, lang)
}

// Use switches the language and returns the function that restores it:
// the configurations call it once; tests compare the two editions of one
// output with it.
func Use(l Lang) (restore func()) {
	old := current
	current = l
	return func() { current = old }
}

// T is the message key in the run's language, formatted with args.
func T(key string, args ...any) string { return current.T(key, args...) }

// T is the message key in language l. A key missing from the language
// falls back to English (messagestest.Check keeps that from happening), and an unknown key prints itself, visibly wrong.
func (l Lang) T(key string, args ...any) string {
	format, ok := catalogue[l][key]
	if !ok {
		if format, ok = catalogue[English][key]; !ok {
			format = key
		}
	}
	if len(args) == 0 {
		return format
	}
	return fmt.Sprintf(format, args...)
}

// Suffix is the file-name infix of the run's language: "" for English,
// ".vi" for Vietnamese (README.vi.md, hints.vi.txt).
func (l Lang) Suffix() string {
	if l == English {
		return ""
	}
	return "." + string(l)
}

// Localized returns the language's twin of an English file (README.md →
// README.vi.md) when it exists, else the English file itself.
func Localized(path string) string {
	suffix := current.Suffix()
	if suffix == "" {
		return path
	}
	dot := strings.LastIndex(path, ".")
	if dot < 0 || strings.LastIndex(path, "/") > dot {
		return path
	}
	twin := path[:dot] + suffix + path[dot:]
	if _, err := os.Stat(twin); err != nil {
		return path
	}
	return twin
}

var catalogue = map[Lang]map[string]string{English: {}, Vietnamese: {}}

// Words is each key's message in language l: a table's header, built in
// English (English.Words) and said again at print time.
func (l Lang) Words(keys ...string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = l.T(k)
	}
	return out
}

// Words is each key's message in the run's language.
func Words(keys ...string) []string { return current.Words(keys...) }
