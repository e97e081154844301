package messagestest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// docs/vi/forbidden.txt lists the variants the glossary rules out, each
// with the glossary's word and, where a variant is right in some
// sentences, the context that decides. Every Vietnamese text is held to it
// — the prose (internal/dev/docs' glossary test), the CLI's catalogue and
// the claims' lines — so its reader lives here, once.

// Rule is one line of docs/vi/forbidden.txt.
type Rule struct {
	Variant, Use string   // the variant, lowercased, and the word to write
	only, unless []string // context phrases: the line must have one / must have none
}

// ForbiddenRules reads docs/vi/forbidden.txt under root.
func ForbiddenRules(root string) ([]Rule, error) {
	b, err := os.ReadFile(filepath.Join(root, "docs", "vi", "forbidden.txt"))
	if err != nil {
		return nil, err
	}
	var rules []Rule
	for n, line := range strings.Split(string(b), "\n") {
		if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		head, cond, _ := strings.Cut(line, "|")
		variant, use, ok := strings.Cut(head, "→")
		if !ok {
			return nil, fmt.Errorf("forbidden.txt:%d: no →: %q", n+1, line)
		}
		r := Rule{Variant: strings.ToLower(strings.TrimSpace(variant)), Use: strings.TrimSpace(use)}
		if cond = strings.TrimSpace(cond); cond != "" {
			kind, list, ok := strings.Cut(cond, ":")
			var phrases []string
			for p := range strings.SplitSeq(list, ",") {
				phrases = append(phrases, strings.ToLower(strings.TrimSpace(p)))
			}
			switch strings.TrimSpace(kind) {
			case "nếu có":
				r.only = phrases
			case "trừ khi có":
				r.unless = phrases
			default:
				ok = false
			}
			if !ok {
				return nil, fmt.Errorf("forbidden.txt:%d: the condition is 'nếu có: …' or 'trừ khi có: …': %q", n+1, line)
			}
		}
		rules = append(rules, r)
	}
	if len(rules) == 0 {
		return nil, fmt.Errorf("forbidden.txt holds no rule")
	}
	return rules, nil
}

// Applies: the rule's context allows no match in these (lowercased) lines.
func (r Rule) Applies(context string) bool {
	has := func(ps []string) bool {
		for _, p := range ps {
			if strings.Contains(context, p) {
				return true
			}
		}
		return false
	}
	return (r.only == nil || has(r.only)) && !has(r.unless)
}

// Broken is the rules one line of text breaks (a message, a claim's line:
// the whole text is the context), with the word each asks for.
func Broken(rules []Rule, text string) []string {
	lower := strings.ToLower(text)
	var out []string
	for _, r := range rules {
		if len(WordIndexes(lower, r.Variant)) > 0 && r.Applies(lower) {
			out = append(out, fmt.Sprintf("%q → write %q", r.Variant, r.Use))
		}
	}
	return out
}

// wholeAt: the match at s[i:i+n] is a whole word ("pin" is not "pinned").
func wholeAt(s string, i, n int) bool {
	before, _ := utf8.DecodeLastRuneInString(s[:i])
	after, _ := utf8.DecodeRuneInString(s[i+n:])
	word := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }
	return (i == 0 || !word(before)) && (i+n == len(s) || !word(after))
}

// WordIndexes are the bounds of word in s, whole words only. A space in
// word matches any run of blanks, so a phrase still counts when it wraps
// onto an indented line (s is flat: its line breaks are blanks).
func WordIndexes(s, word string) [][2]int {
	parts := strings.Fields(word)
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	var at [][2]int
	for _, m := range regexp.MustCompile(strings.Join(parts, `[ \t]+`)).FindAllStringIndex(s, -1) {
		if wholeAt(s, m[0], m[1]-m[0]) {
			at = append(at, [2]int{m[0], m[1]})
		}
	}
	return at
}
