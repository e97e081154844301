package messages

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/given/messages/messagestest"
)

// reportNames are the words the report page's Vietnamese keeps besides the
// glossary's: the paths, commands and variables it names, units, and the
// two words of the charts' legend the captions point at (the charts stay
// English: the decks draw the same ones).
var reportNames = strings.Fields(`
	results step reference latest json make bench drill code SOLUTION GOMAXPROCS CPU CPUs UTC VUs
	DB Redis ms req public claim peakload
	warm up drain
`)

// TestReportWordsInVietnamese: every word of `make report`'s page is said
// in Vietnamese but for the glossary's loanwords and reportNames (issue 34
// §3), every key, not only those the reference runs reach.
func TestReportWordsInVietnamese(t *testing.T) {
	kept, err := messagestest.GlossaryWords(filepath.Join("..", "..", ".."), reportNames...)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range reportWords {
		e, v := verbRE.ReplaceAllString(w.en, " "), verbRE.ReplaceAllString(w.vi, " ")
		if left := messagestest.EnglishLeft(e, v, kept); len(left) > 0 {
			t.Errorf("%s: %q keeps the English %q", w.key, w.vi, left)
		}
		if strings.Count(w.en, "%") != strings.Count(w.vi, "%") {
			t.Errorf("%s: %q and %q take different verbs", w.key, w.en, w.vi)
		}
	}
}
