package scenario

import (
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/harness/result"
)

// everyClaim returns every claim of every step as the bench declares it
// (judged on an empty run: the text and source do not depend on figures).
func everyClaim(t *testing.T) []result.Claim {
	t.Helper()
	env := Env{Params: params.Load(), Original: true} // the sources' own stacks' claims too
	var out []result.Claim
	for _, s := range All() {
		if s.Claims != nil {
			out = append(out, s.Claims(&result.Result{}, env)...)
		}
	}
	if len(out) == 0 {
		t.Fatal("no claims declared")
	}
	return out
}

// Every claim says whose it is: a room reads an unlabelled claim as the
// article's.
func TestEveryClaimHasASource(t *testing.T) {
	for _, c := range everyClaim(t) {
		s := c.Source
		switch s.Kind {
		case result.FromArticle, result.FromGuide:
			if s.Quote == "" || !slices.Contains([]string{"A", "B", "C", "D"}, s.Article) {
				t.Errorf("%s: a %s claim needs the article (A–D) and its sentence, got %+v", c.ID, s.Kind, s)
			}
		case result.FromRepo:
			if s.Ref == "" {
				t.Errorf("%s: a repo claim names its file or README row", c.ID)
			}
		case result.FromOurs:
			if (s.Quote == "") != (s.Article == "") {
				t.Errorf("%s: an ours claim that starts from an article's sentence names both the article and the sentence, got %+v", c.ID, s)
			}
		default:
			t.Errorf("%s: no source (want article, repo, guide or ours)", c.ID)
		}
	}
}

// seeds returns the four originals by article letter, read from
// ../shared/seeds beside the repository; ok is false (and t says why) when
// they are not there, as in a learner's clone.
func seeds(t *testing.T) (map[string]string, bool) {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Skip("no go.mod above the test's directory: cannot find ../shared/seeds")
		}
		dir = up
	}
	files, _ := filepath.Glob(filepath.Join(dir, "..", "shared", "seeds", "*.txt"))
	if len(files) == 0 {
		t.Skipf("the originals are not beside this clone (%s): the quotes and figures are checked where they are", filepath.Join(dir, "..", "shared", "seeds"))
		return nil, false
	}
	// each original is known by a phrase of its own, not by its file name
	marks := map[string]string{
		"A": "API NodeJS của tôi đã handle peak traffic",
		"B": "Chuyện anh thợ xây P1",
		"C": "Profiling Node.js Applications",
		"D": "80k RPS trên VPS 1 vCPU",
	}
	out := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text := normal(string(b))
		for a, m := range marks {
			if strings.Contains(text, m) {
				out[a] = text
			}
		}
	}
	for a := range marks {
		if out[a] == "" {
			t.Fatalf("article %s not found among %v", a, files)
		}
	}
	return out, true
}

// inAnOriginal says whether q stands in one of the originals' texts (seeds).
func inAnOriginal(texts map[string]string, q string) bool { return inSources(texts, "", q) }

// normal collapses whitespace: a quote spans what the seed wraps. (The
// seeds and the quotes are both NFC, as typed; a decomposed quote fails
// here rather than passing by a normalisation the repo does not carry.)
func normal(s string) string { return strings.Join(strings.Fields(s), " ") }

var figureRE = regexp.MustCompile(`\d+(?:[.,]\d+)*`)

// stackless is a claim's text without the "[on the source's stack, here:
// Express 5 on Node] " before it (onStack.says): versions, not figures.
func stackless(text string) string {
	if rest, ok := strings.CutPrefix(text, "["); ok {
		if _, after, ok := strings.Cut(rest, "] "); ok {
			return after
		}
	}
	return text
}

// figures returns the numbers of s as written (the articles write 5,3
// where we write 5.3: a figure is looked up with its marks swapped too).
func figures(s string) map[string]bool {
	out := map[string]bool{}
	for _, f := range figureRE.FindAllString(s, -1) {
		out[f] = true
	}
	return out
}

// An article's (or the guide's, through article C) claim quotes a sentence
// the original contains, and every figure of its text is a number the
// original writes, unless the source marks it as ours (computed or a
// parameter of our workload).
func TestClaimsQuoteTheirArticle(t *testing.T) {
	texts, ok := seeds(t)
	if !ok {
		return
	}
	for _, c := range everyClaim(t) {
		s := c.Source
		if s.Quote != "" && !strings.Contains(texts[s.Article], normal(s.Quote)) {
			t.Errorf("%s: article %s does not contain the quoted sentence %q", c.ID, s.Article, s.Quote)
		}
		if s.Kind != result.FromArticle && s.Kind != result.FromGuide {
			continue // ours: its figures are ours (the sentence it starts from is checked above)
		}
		seed := texts[s.Article]
		theirs := figures(seed)
		for f := range figures(stackless(c.Article)) {
			if slices.Contains(s.Ours, f) {
				continue
			}
			if !theirs[f] && !theirs[messages.SwapDecimalMarks(f)] {
				t.Errorf("%s: the text gives %s as article %s's, which the article does not write (mark it ours if we computed it): %q", c.ID, f, s.Article, c.Article)
			}
		}
		for _, f := range s.Ours {
			if !strings.Contains(c.Article, f) {
				t.Errorf("%s: %s is marked ours but the text does not print it", c.ID, f)
			}
		}
	}
}

// vietnamese matches a letter only Vietnamese uses (a quote of an original
// rather than an English word in italics).
var vietnamese = regexp.MustCompile(`[àáãèéìíòóõùúýăâđêôơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹĐ]`)

var (
	italicRE = regexp.MustCompile(`(?s)(?:^|[^*])\*([^*\s][^*]*?)\*(?:[^*]|$)`)
	// boldRE and quotedRE: the spans docs/articles.md gives as the
	// article's figures or words (bold, or in double quotes).
	boldRE   = regexp.MustCompile(`(?s)\*\*([^*]+?)\*\*`)
	quotedRE = regexp.MustCompile(`"([^"\n]+)"`)
)

// prose returns the text of a markdown file outside its generated regions
// and code blocks (their figures are ours, or the run's).
func prose(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	generated, code := false, false
	for _, l := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(l, "<!-- reference:"):
			generated = true
		case strings.HasPrefix(l, "<!-- /reference"):
			generated = false
		case strings.HasPrefix(strings.TrimSpace(l), "```"):
			code = !code
		case !generated && !code:
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// Every Vietnamese phrase the English pages — the README, the docs, the
// step READMEs and the decks — set in italics is a quote of an original,
// verbatim (whitespace aside; an ellipsis may join two pieces of one
// passage). What this cannot check: that an English rendering beside it
// says the same thing.
func TestVietnameseQuotesOccurInTheOriginals(t *testing.T) {
	texts, ok := seeds(t)
	if !ok {
		return
	}
	n := 0
	for _, f := range pages(t, "README.md", "docs/*.md", "steps/*/README.md", "slides/*.slide") {
		for _, m := range italicRE.FindAllStringSubmatch(prose(t, f), -1) {
			q := normal(m[1])
			if !vietnamese.MatchString(q) {
				continue
			}
			n++
			for _, piece := range strings.Split(q, "…") {
				if piece = strings.Trim(piece, " .,;:"); piece != "" && !inSources(texts, "", piece) {
					t.Errorf("%s: *%s* is set as a quote, and no original contains %q", f, q, piece)
				}
			}
		}
	}
	if n == 0 {
		t.Error("no Vietnamese quote found: the pattern no longer matches the docs")
	}
}

// docs/articles.md's sections A to D give in bold or in double quotes
// the figures and words their article reports: each number there must be
// one the original writes (5,3 for 5.3 too) or, in section B, one of the
// author's README rows as the bench declares them (readmeFigures); a
// paragraph of B whose first line says "(our arithmetic)" is ours. What this
// cannot check: that a number the original writes is the one meant (a
// number that merely occurs elsewhere in the article passes), and figures
// set otherwise; ours are marked in words ("our arithmetic"), which a test
// cannot tell from theirs. Nor the step READMEs' figures: their bold spans
// mix the article's figures with our tolerances and results, so only their
// Vietnamese quotes are checked (above).
func TestArticlesPageFiguresAreTheOriginals(t *testing.T) {
	texts, ok := seeds(t)
	if !ok {
		return
	}
	page := prose(t, filepath.Join("..", "..", "..", "docs", "articles.md"))
	sections := regexp.MustCompile(`(?m)^## ([A-D]) — `).FindAllStringSubmatchIndex(page, -1)
	checked := 0
	for i, s := range sections {
		a := page[s[2]:s[3]]
		end := len(page)
		if i+1 < len(sections) {
			end = sections[i+1][0]
		} else if j := strings.Index(page[s[0]:], "\n## "); j > 0 {
			end = s[0] + j
		}
		theirs := figures(texts[a])
		section := page[s[0]:end]
		if a == "B" {
			// B's figures are its text's or its author's README rows'; a
			// paragraph of ratios we computed from them says so first.
			maps.Copy(theirs, readmeFigures())
			var kept []string
			for _, para := range strings.Split(section, "\n\n") {
				first, _, _ := strings.Cut(strings.TrimSpace(para), "\n")
				if !strings.Contains(first, "(our arithmetic)") {
					kept = append(kept, para)
				}
			}
			section = strings.Join(kept, "\n\n")
		}
		spans := append(boldRE.FindAllStringSubmatch(section, -1), quotedRE.FindAllStringSubmatch(section, -1)...)
		for _, m := range spans {
			for f := range figures(m[1]) {
				checked++
				if !theirs[f] && !theirs[messages.SwapDecimalMarks(f)] {
					t.Errorf("docs/articles.md section %s: %q gives %s as the article's, which article %s does not write", a, m[1], f, a)
				}
			}
		}
	}
	if checked == 0 {
		t.Error("no bold figure found in sections A to D")
	}
}

// readmeFigures returns the author's README "Test Result" figures as the
// code declares them (authorRows, and each of B's stacks' empty GET and
// POST), written as a text would print them: the README is not stored
// beside the seeds, so this is the one place its figures live.
func readmeFigures() map[string]bool {
	out := map[string]bool{strconv.Itoa(authorEvents / 1000): true} // "100k events"
	add := func(vs ...float64) {
		for _, v := range vs {
			if v != 0 {
				out[strconv.FormatFloat(v, 'f', -1, 64)] = true
			}
		}
	}
	for _, r := range authorRows {
		add(r.HTTPS, r.AddS, r.HTTPRPS, r.OpsRPS, r.MongoCPU)
	}
	for _, s := range bStacks {
		add(s.empty, s.post)
	}
	return out
}

// A claim on the author's repository prints only figures of its README
// rows (as authorRows and bStacks declare them) and figures it marks ours:
// a figure typed into a repo claim's text that the table does not hold is
// either ours, unmarked, or a misreading of the README.
func TestRepoClaimsPrintTheREADMEsFigures(t *testing.T) {
	theirs := readmeFigures()
	n := 0
	for _, c := range everyClaim(t) {
		if c.Source.Kind != result.FromRepo {
			continue
		}
		for f := range figures(stackless(c.Article)) {
			n++
			if !theirs[f] && !slices.Contains(c.Source.Ours, f) {
				t.Errorf("%s: the text gives %s as the author's README's, which its rows (authorRows, bStacks) do not hold (mark it ours if we computed it): %q", c.ID, f, c.Article)
			}
		}
	}
	if n == 0 {
		t.Error("no figure found in the repo claims")
	}
}

// docs/articles.md (and its Vietnamese twin) copies the README rows the
// workshop reads: each cell must be the row's figure as authorRows declares
// it, so the page and the bench cannot drift apart.
func TestArticlesPageREADMERowsAreTheDeclaredOnes(t *testing.T) {
	byRow := map[int]authorRow{}
	for _, r := range authorRows {
		byRow[r.Row] = r
	}
	cell := func(s string) float64 {
		s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "%"))
		if s == "" {
			return 0
		}
		v, err := strconv.ParseFloat(strings.ReplaceAll(s, ",", "."), 64)
		if err != nil {
			t.Fatalf("cell %q: %v", s, err)
		}
		return v
	}
	for _, page := range []string{"articles.md", filepath.Join("vi", "articles.md")} {
		text := prose(t, filepath.Join("..", "..", "..", "docs", page))
		rows := regexp.MustCompile(`(?m)^\| (\d+) \| [^|]+ \|([^\n]*)\|$`).FindAllStringSubmatch(text, -1)
		seen := 0
		for _, m := range rows {
			no, _ := strconv.Atoi(m[1])
			want, ok := byRow[no]
			cells := strings.Split(m[2], "|")
			if !ok || len(cells) != 5 {
				continue // another table's row
			}
			seen++
			got := authorRow{Row: no, HTTPS: cell(cells[0]), AddS: cell(cells[1]), HTTPRPS: cell(cells[2]), OpsRPS: cell(cells[3]), MongoCPU: cell(cells[4])}
			if got != want {
				t.Errorf("docs/%s, README row %d: %+v, but the bench declares %+v (step06_repo.go)", page, no, got, want)
			}
		}
		if seen < 5 {
			t.Errorf("docs/%s: only %d README rows found: the table's shape changed", page, seen)
		}
	}
}
