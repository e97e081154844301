package scenario

import (
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/course"
)

// The README's step table ("their figure", course's Row.Theirs) and each
// deck's chart (its Mark, the source's figure drawn beside ours) print a
// source's figure on every step: each number there is one the articles
// the row names write (its claim ids: "B2; A0" names A and B; 5,3 for 5.3
// too), or, for article B, one of the author's README rows. What this
// cannot check: that the number is the one meant (one that merely occurs
// elsewhere in the article passes).
func TestStepTableFiguresAreTheSources(t *testing.T) {
	texts, ok := seeds(t)
	if !ok {
		return
	}
	articles := regexp.MustCompile(`\b([A-D])\d`) // a claim id of an article: "S0" is ours
	checked := 0
	for _, s := range course.All() {
		theirs := map[string]bool{}
		for _, m := range articles.FindAllStringSubmatch(s.Row.Article, -1) {
			maps.Copy(theirs, figures(texts[m[1]]))
			if m[1] == "B" {
				maps.Copy(theirs, readmeFigures())
			}
		}
		cells := []string{s.Row.Theirs}
		if s.Slide.Mark != nil {
			cells = append(cells, s.Slide.Mark.Quote)
		}
		for _, cell := range cells {
			for f := range figures(cell) {
				checked++
				if !theirs[f] && !theirs[messages.SwapDecimalMarks(f)] {
					t.Errorf("step %d: %q gives %s as its source's, which the articles of %q do not write", s.N, cell, f, s.Row.Article)
				}
			}
		}
	}
	if checked == 0 {
		t.Error("no figure found in the step table's source column")
	}
}

// verbatimRE finds what the Vietnamese pages announce as word for word
// ("nguyên văn: …", "nguyên văn bài viết: …") and the quotes that follow it
// in the same sentence, joined by "và" or a comma.
var (
	verbatimRE = regexp.MustCompile(`(?i)nguyên văn[^"«»\n]{0,40}:\s*`)
	quoteRunRE = regexp.MustCompile(`^(?:"([^"]+)"|«([^»]+)»)(?:\s*(?:,|và|;)\s*)?`)
)

// Every quote the Vietnamese pages introduce as verbatim (nguyên văn) is
// in one of the four originals, word for word (whitespace aside): the
// README, the docs, the step READMEs and the decks. docs/vi/articles.md's
// «…» are checked by cmd/workshop-dev's TestVietnameseQuotesAreTheOriginals;
// this covers the sentences elsewhere that say "the article, verbatim".
func TestVietnameseVerbatimQuotesAreTheOriginals(t *testing.T) {
	texts, ok := seeds(t)
	if !ok {
		return
	}
	root := filepath.Join("..", "..", "..")
	var files []string
	for _, pattern := range []string{"README.vi.md", "docs/vi/*.md", "steps/*/README.vi.md", "slides/vi/*.slide"} {
		m, _ := filepath.Glob(filepath.Join(root, pattern))
		files = append(files, m...)
	}
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		for _, at := range verbatimRE.FindAllStringIndex(text, -1) {
			rest := text[at[1]:]
			for {
				m := quoteRunRE.FindStringSubmatch(rest)
				if m == nil {
					break
				}
				q := normal(m[1] + m[2])
				n++
				if !inAnOriginal(texts, q) {
					t.Errorf("%s: %q is given as verbatim (nguyên văn), and no original contains it", f, q)
				}
				rest = rest[len(m[0]):]
			}
		}
	}
	if n < 5 {
		t.Errorf("only %d quotes announced as verbatim found: the pattern no longer matches the pages", n)
	}
}
