// Package messagestest holds what the tests of a Vietnamese printout share:
// which English words survived, and which the glossary keeps.
package messagestest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// The tests that print a table under PEAKLOAD_LANG=vi (the steps' extra
// tables, the audit's) ask the same question of every string: which
// English word survived the translation? A word may, when
// docs/vi/glossary.md keeps it (cache, throughput, p99…): the glossary
// fixes each term once, and the tests read it rather than a list of their
// own that would drift from it.

// asciiWord is a word of two ASCII letters or more (a unit like "ms" too).
var asciiWord = regexp.MustCompile(`[A-Za-z][A-Za-z']*[A-Za-z]`)

// EnglishWords are s's ASCII words, whole: "GETs" is not "GET"; a word
// touching a digit is part of a figure or a name (p99, 1e6, ipv4).
func EnglishWords(s string) []string {
	var out []string
	for _, loc := range asciiWord.FindAllStringIndex(s, -1) {
		before, after := rune(' '), rune(' ')
		if loc[0] > 0 {
			before = rune(s[loc[0]-1])
		}
		if loc[1] < len(s) {
			after = rune(s[loc[1]])
		}
		if unicode.IsDigit(before) || unicode.IsDigit(after) {
			continue
		}
		out = append(out, strings.TrimSuffix(s[loc[0]:loc[1]], "'"))
	}
	return out
}

// EnglishLeft are the words of english that its translation said still
// prints, less those kept (lowercased).
func EnglishLeft(english, said string, kept map[string]bool) []string {
	var out []string
	for _, w := range EnglishWords(english) {
		if !kept[strings.ToLower(w)] && slices.Contains(EnglishWords(said), w) {
			out = append(out, w)
		}
	}
	return out
}

var parenthesis = regexp.MustCompile(`\([^)]*\)`)

// GlossaryWords are the words of docs/vi/glossary.md's first column under
// root (the terms kept in English, less a Vietnamese term's English gloss:
// "khoảng stale (stale window)" keeps "stale", not "window"), lowercased,
// with the extra names a caller keeps besides.
func GlossaryWords(root string, extra ...string) (map[string]bool, error) {
	b, err := os.ReadFile(filepath.Join(root, "docs", "vi", "glossary.md"))
	if err != nil {
		return nil, fmt.Errorf("the glossary: %w", err)
	}
	kept := map[string]bool{}
	for _, line := range strings.Split(string(b), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 3 {
			continue
		}
		term := cells[1]
		if outside := parenthesis.ReplaceAllString(term, ""); strings.ContainsFunc(outside, func(r rune) bool { return r > unicode.MaxASCII }) {
			term = outside
		}
		for _, w := range EnglishWords(term) {
			kept[strings.ToLower(w)] = true
		}
	}
	for _, w := range extra {
		kept[strings.ToLower(w)] = true
	}
	return kept, nil
}
