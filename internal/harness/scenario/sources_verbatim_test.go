package scenario

import (
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strings"
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
// «…» are checked by internal/dev/docs' TestVietnameseQuotesAreTheOriginals;
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

// attributedRE finds a Vietnamese page's quote handed to a source by what
// follows it: «"…" của bài A», «“…” trong bài viết», «"…" của các bài viết».
// Group 4 is the article's letter, empty when the page names no one article.
var attributedRE = regexp.MustCompile(`(?:"([^"\n]+)"|“([^”]+)”|«([^»]+)»)\s+(?:của|trong)\s+(?:bài ([A-D])\b|(?:các )?bài viết\b)`)

// A quote a Vietnamese page gives to an article by name ("…" của bài A,
// "…" của bài viết) is that article's wording, word for word: a
// retranslation in quotation marks ("một process Node" for the articles'
// "1 process node") reads as the source's and is not. A phrase of ours
// goes without quotation marks.
func TestVietnameseQuotesGivenToAnArticleAreItsWords(t *testing.T) {
	texts, ok := seeds(t)
	if !ok {
		return
	}
	n := 0
	for _, f := range pages(t, "README.vi.md", "docs/vi/*.md", "steps/*/README.vi.md", "slides/vi/*.slide") {
		text := readPage(t, f)
		for _, m := range attributedRE.FindAllStringSubmatch(text, -1) {
			q := normal(m[1] + m[2] + m[3])
			n++
			switch {
			case inSources(texts, m[4], q):
			case m[4] == "":
				t.Errorf("%s: %q is quoted as the article's (của bài viết), and no original writes it", f, q)
			default:
				t.Errorf("%s: %q is quoted as article %s's, and article %s does not write it", f, q, m[4], m[4])
			}
		}
	}
	if n == 0 {
		t.Error("no quote handed to an article found: the pattern no longer matches the pages")
	}
}

// pages lists the repository's files matching the patterns, from its root.
func pages(t *testing.T, patterns ...string) []string {
	t.Helper()
	root := filepath.Join("..", "..", "..")
	var files []string
	for _, p := range patterns {
		m, err := filepath.Glob(filepath.Join(root, p))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatalf("no page matches %v under %s", patterns, root)
	}
	return files
}

func readPage(t *testing.T, f string) string {
	t.Helper()
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// inSources: q is in article a's text, or in any original when a is "".
func inSources(texts map[string]string, a, q string) bool {
	if a != "" {
		return strings.Contains(texts[a], q)
	}
	for _, s := range texts {
		if strings.Contains(s, q) {
			return true
		}
	}
	return false
}
