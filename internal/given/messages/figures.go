package messages

import (
	"regexp"
	"strings"
)

var figure = regexp.MustCompile(`\d[\d,.]*\d`)

// SwapDecimalMarks writes every number of s with its "." as "," and its ","
// as ".". Vietnamese writes 1,537 as "1.537" and 5.3 as "5,3": this turns
// a figure written one way into the other, so a Vietnamese text (an
// article, a deck) can be compared with the English figures of a run.
func SwapDecimalMarks(s string) string {
	return figure.ReplaceAllStringFunc(s, func(x string) string {
		return strings.Map(func(r rune) rune {
			switch r {
			case '.':
				return ','
			case ',':
				return '.'
			}
			return r
		}, x)
	})
}
