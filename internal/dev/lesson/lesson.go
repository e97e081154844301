// Package lesson measures a step README the way a learner meets it: the
// must-read part (everything before "## Going deeper", or its Vietnamese
// twin "## Đi sâu hơn"), counted in words. The day's plan reads these
// counts (reading time at WordsPerMinute), and a test keeps every step's
// must-read part short enough to fit the day (issue 32).
package lesson

import (
	"regexp"
	"strings"
)

// The headings that end the must-read part: what follows is optional, and
// the step's check never needs it.
const (
	DeeperEN = "## Going deeper"
	DeeperVI = "## Đi sâu hơn"
)

// WordsPerMinute is the reading speed the agenda plans with: an ordinary
// adult's pace for technical prose in a second language (ours).
const WordsPerMinute = 150

var (
	fence   = regexp.MustCompile("(?ms)^```.*?^```[^\n]*$")
	comment = regexp.MustCompile(`(?s)<!--.*?-->`)
	deeper  = regexp.MustCompile(`(?m)^(?:` + DeeperEN + `|` + DeeperVI + `)[ \t]*$`)
)

// MustRead is the part of a README before its "Going deeper" line (in
// either language), and whether the README has that line at all.
func MustRead(readme string) (string, bool) {
	if loc := deeper.FindStringIndex(readme); loc != nil {
		return readme[:loc[0]], true
	}
	return readme, false
}

// Prose is text without its fenced code blocks and HTML comments (the
// generated regions' markers among them): what a reader reads as prose.
func Prose(text string) string {
	return comment.ReplaceAllString(fence.ReplaceAllString(text, ""), "")
}

// Words counts the whitespace-separated tokens of text's prose. For
// Vietnamese a token is a syllable: a word is one to three of them.
func Words(text string) int { return len(strings.Fields(Prose(text))) }

// Headings are the Markdown headings of text's prose, in order.
func Headings(text string) []string {
	var out []string
	for _, line := range strings.Split(Prose(text), "\n") {
		if strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	return out
}

// ReadingMinutes is how long words take at WordsPerMinute.
func ReadingMinutes(words int) float64 { return float64(words) / WordsPerMinute }
