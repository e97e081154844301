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
// holds, each figure said again in l when it is a message itself (an
// audit's evidence names where its load ran in a sentence of its own). A
// string joining messages with "; " (a capacity probe's "why": the reason,
// then the driver's lag; an audit's evidence) is said message by message;
// what matches nothing — a figure, a variant's name — is returned as it is.
func (l Lang) Restate(english string) string {
	if l == English {
		return english
	}
	return l.say(english)
}

// cost ranks the ways of cutting a string at its "; " into messages: the
// fewest parts left unsaid, then the fewest "; " taken into a message's
// figures (a "; " is a boundary between messages more often than a
// figure's own), then the fewest messages (a format holding "; " itself,
// whole, over its pieces).
type cost [3]int

func (c cost) plus(d cost) cost { return cost{c[0] + d[0], c[1] + d[1], c[2] + d[2]} }

func (c cost) less(d cost) bool {
	for i := range c {
		if c[i] != d[i] {
			return c[i] < d[i]
		}
	}
	return false
}

// say is english cut at its "; " the cheapest way, each piece said in l.
func (l Lang) say(english string) string {
	parts := strings.Split(english, "; ")
	type way struct {
		cost  cost
		said  []string
		found bool
	}
	best := make([]way, len(parts)+1)
	best[0].found = true
	for i := 1; i <= len(parts); i++ {
		for j := range i {
			piece := strings.Join(parts[j:i], "; ")
			said, inside, ok := l.restate(piece)
			c := cost{0, inside, 1}
			if !ok {
				if i > j+1 {
					continue // an unsaid piece is one part: the rest may still be said
				}
				c = cost{1, 0, 1}
			}
			total := best[j].cost.plus(c)
			if !best[i].found || total.less(best[i].cost) {
				best[i] = way{total, append(slices.Clone(best[j].said), said), true}
			}
		}
	}
	return strings.Join(best[len(parts)].said, "; ")
}

// restate is english said in l by the message matching it whole that takes
// the fewest "; " into its figures (the longest format first among equals),
// and that count.
func (l Lang) restate(english string) (said string, inside int, ok bool) {
	var args []string
	var key string
	for _, p := range notePatterns() {
		m := p.re.FindStringSubmatch(english)
		if m == nil {
			continue
		}
		n := 0
		for _, a := range m[1:] {
			n += strings.Count(a, "; ")
		}
		if !ok || n < inside {
			key, args, inside, ok = p.key, m[1:], n, true
		}
		if n == 0 {
			break
		}
	}
	if !ok {
		return english, 0, false
	}
	figures := make([]string, len(args))
	for i, a := range args {
		figures[i] = l.say(a)
	}
	return l.fill(catalogue[l][key], figures), inside, true
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
	for _, key := range slices.SortedFunc(maps.Keys(catalogue[English]), func(a, b string) int {
		return cmp.Or(cmp.Compare(len(catalogue[English][b]), len(catalogue[English][a])), cmp.Compare(a, b))
	}) {
		format := catalogue[English][key]
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
