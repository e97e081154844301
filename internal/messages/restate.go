package messages

import (
	"cmp"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// A result stores its notes in English (the JSON keeps one language), yet a
// learner reading a table under PEAKLOAD_LANG=vi should read them in
// Vietnamese, for a run just measured as for one read back. So a note is
// written from a "note." message (English.T), and Restate finds that
// message again from the stored sentence and says it in the run's language,
// its figures carried over.

// Restate is a stored English note in the run's language.
func Restate(english string) string { return current.Restate(english) }

// Restate is a stored English note in language l: the note.* or table.*
// message whose English format matches it, filled with the figures it
// holds. A string no message matches whole is said part by part when it
// joins messages with "; " (a capacity probe's "why": the reason, then the
// driver's lag); what matches nothing — a figure, a variant's name — is
// returned as it is.
func (l Lang) Restate(english string) string {
	if l == English {
		return english
	}
	if s, ok := l.restate(english); ok {
		return s
	}
	parts := strings.Split(english, "; ")
	if len(parts) == 1 {
		return english
	}
	for i, p := range parts {
		parts[i], _ = l.restate(p)
	}
	return strings.Join(parts, "; ")
}

// restate is english said in l by the one message matching it whole.
func (l Lang) restate(english string) (string, bool) {
	for _, p := range notePatterns() {
		if m := p.re.FindStringSubmatch(english); m != nil {
			return l.fill(catalogue[l][p.key], m[1:]), true
		}
	}
	return english, false
}

// verbRE finds a format's verbs (and %%).
var verbRE = regexp.MustCompile(`%[-+#0-9.]*[a-zA-Z%]`)

type pattern struct {
	key string
	re  *regexp.Regexp
}

// notePatterns are the English note.* and table.* formats as expressions,
// each verb a group, built once; the longest first, so that of two formats
// matching one string the fuller wins, the same one in every run.
var notePatterns = sync.OnceValue(func() []pattern {
	var out []pattern
	for _, key := range slices.SortedFunc(maps.Keys(en), func(a, b string) int {
		return cmp.Or(cmp.Compare(len(en[b]), len(en[a])), cmp.Compare(a, b))
	}) {
		format := en[key]
		if !strings.HasPrefix(key, "note.") && !strings.HasPrefix(key, "table.") {
			continue
		}
		var b strings.Builder
		last := 0
		for _, loc := range verbRE.FindAllStringIndex(format, -1) {
			b.WriteString(regexp.QuoteMeta(format[last:loc[0]]))
			if format[loc[0]:loc[1]] == "%%" {
				b.WriteString("%")
			} else {
				b.WriteString("(.+?)")
			}
			last = loc[1]
		}
		b.WriteString(regexp.QuoteMeta(format[last:]))
		out = append(out, pattern{key, regexp.MustCompile("^" + b.String() + "$")})
	}
	return out
})

// fill puts the figures, as the English wrote them (the CLI writes numbers
// one way in both languages: docs/vi/glossary.md), into l's format.
func (l Lang) fill(format string, args []string) string {
	if format == "" {
		return strings.Join(args, " ")
	}
	i := 0
	return verbRE.ReplaceAllStringFunc(format, func(verb string) string {
		if verb == "%%" {
			return "%"
		}
		if i >= len(args) {
			return verb
		}
		i++
		return args[i-1]
	})
}
