package docs

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/harness/gotree"
)

// viMessagesHeading opens the section of a step's README.vi.md that lists
// its check's failure messages, kept in English as the check prints them,
// each with its meaning in Vietnamese.
const viMessagesHeading = "## Thông báo lỗi của bài check"

// Every failure message a Vietnamese lesson quotes is one its check can
// print: each piece of the quote between gaps stands in a string of the
// step's code or of the harness its check calls (a format verb there, and
// a placeholder N, M, ID, PATH… in the quote, read as a gap). A message the
// check no longer prints would send the learner looking for a line that
// never comes.
func TestVietnameseLessonsQuoteTheirChecksMessages(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	lessons, err := filepath.Glob(filepath.Join(root, "steps", "*", "README.vi.md"))
	if err != nil || len(lessons) == 0 {
		t.Fatalf("no steps/*/README.vi.md under %s: %v", root, err)
	}
	shared := checkStrings(t, filepath.Join(root, "internal", "harness"), filepath.Join(root, "internal", "given"))
	quoted := 0
	for _, lesson := range lessons {
		b, err := os.ReadFile(lesson)
		if err != nil {
			t.Fatal(err)
		}
		strs := append(checkStrings(t, filepath.Dir(lesson)), shared...)
		for _, q := range quotedMessages(string(b)) {
			quoted++
			if piece := missingPiece(q, strs); piece != "" {
				t.Errorf("%s quotes the message `%s`, but no string of its tests holds %q: quote what the check prints now",
					filepath.Base(filepath.Dir(lesson))+"/README.vi.md", q, piece)
			}
		}
	}
	if quoted == 0 {
		t.Fatalf("no message quoted under %q in any lesson: the section or its bullets moved", viMessagesHeading)
	}
}

// TestMissingPieceCatchesADriftedQuote: the comparison fails a quote whose
// words the check no longer prints, and passes one whose gaps are verbs.
func TestMissingPieceCatchesADriftedQuote(t *testing.T) {
	strs := []string{normalize("Listen did not subscribe to %q: it only waited; %s: r.Redis.Subscribe(ctx, replica.Channel)")}
	if p := missingPiece(`Listen did not subscribe to "…": it only waited; …: r.Redis.Subscribe(ctx, replica.Channel)`, strs); p != "" {
		t.Errorf("a faithful quote: missing %q", p)
	}
	if p := missingPiece(`Listen did not subscribe to "…" within 2 s; …`, strs); p == "" {
		t.Error("a quote with words the check no longer prints passed")
	}
}

// quotedMessages are the backticked messages that open the bullets of the
// lesson's messages section (a bullet's quote may wrap over lines).
func quotedMessages(lesson string) []string {
	_, section, ok := strings.Cut(lesson, viMessagesHeading)
	if !ok {
		return nil
	}
	if i := strings.Index(section, "\n## "); i >= 0 {
		section = section[:i]
	}
	var out []string
	for _, m := range regexp.MustCompile("(?m)^- `([^`]+)`").FindAllStringSubmatch(section, -1) {
		out = append(out, m[1])
	}
	return out
}

// checkStrings are the string constants of the Go files under dirs
// (gotree's: testdata/'s mutants say what a check must not), adjacent
// literals joined as the compiler joins them, normalized.
func checkStrings(t *testing.T, dirs ...string) []string {
	t.Helper()
	var files []string
	for _, dir := range dirs {
		fs, err := gotree.Files(dir)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, fs...)
	}
	var out []string
	fset := token.NewFileSet()
	for _, f := range files {
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			if s, ok := joined(n); ok {
				out = append(out, normalize(s))
				if _, isBin := n.(*ast.BinaryExpr); isBin {
					return false // its literals are in s already
				}
			}
			return true
		})
	}
	return out
}

// joined is the string a literal or a + of literals spells.
func joined(n ast.Node) (string, bool) {
	switch e := n.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(e.Value)
		return s, err == nil
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return "", false
		}
		x, ok1 := joined(e.X)
		y, ok2 := joined(e.Y)
		return x + y, ok1 && ok2
	}
	return "", false
}

var (
	verb        = regexp.MustCompile(`%[-+# 0]*[0-9*]*(\.[0-9*]+)?[a-zA-Z]`)
	placeholder = regexp.MustCompile(`\b(N|M|K|ID|PATH|CODE|BODY|METHOD|STATUS)\b`)
	space       = regexp.MustCompile(`\s+`)
)

// normalize reads a format verb as "…" and folds white space.
func normalize(s string) string {
	s = verb.ReplaceAllString(s, "…")
	return strings.TrimSpace(space.ReplaceAllString(s, " "))
}

// missingPiece is the first piece of quote (between "…") that no string
// holds, or "" when every piece is in one of them.
func missingPiece(quote string, strs []string) string {
	q := normalize(placeholder.ReplaceAllString(strings.ReplaceAll(quote, `"…"`, "…"), "…"))
	for _, piece := range strings.Split(q, "…") {
		piece = strings.Trim(piece, ` "`)
		if len(piece) < 4 {
			continue
		}
		if !held(piece, strs) {
			return piece
		}
	}
	return ""
}

// held says whether one of strs holds piece or, for a message that says
// another in it ("…: %v", "not seen %s"), two of them hold its halves,
// split at a space, each of a dozen characters or more.
func held(piece string, strs []string) bool {
	in := func(p string) bool {
		p = strings.Trim(strings.ReplaceAll(p, `"`, ""), " ")
		for _, s := range strs {
			if strings.Contains(strings.ReplaceAll(s, `"`, ""), p) {
				return true
			}
		}
		return false
	}
	if in(piece) {
		return true
	}
	for i, r := range piece {
		if r == ' ' && i >= 12 && len(piece)-i >= 12 && in(piece[:i]) && in(piece[i:]) {
			return true
		}
	}
	return false
}
