package result

import (
	"strings"
	"unicode/utf8"
)

// A claim's tolerance prints in at most ToleranceLines lines of
// ToleranceWidth characters (issue 32): what a learner reads beside the
// verdict is the bar, not its derivation, which goes to the step's README
// ("Going deeper"). A test holds every step's claims to it.
const (
	ToleranceWidth = 100
	ToleranceLines = 2
)

// Wrap breaks s at spaces into lines of at most width characters; a word
// longer than width stands on a line of its own.
func Wrap(s string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		switch {
		case line == "":
			line = word
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(word) <= width:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
