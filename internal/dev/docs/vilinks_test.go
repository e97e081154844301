package docs

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// englishOnlyPages are the pages a Vietnamese page may link to in English, and
// why: a maintainer's page changes with the code and is written for the
// people who change it; the link's line must say "tiếng Anh".
var englishOnlyPages = map[string]string{
	"CONTRIBUTING.md": "how to add a step: the maintainers' page, kept in one language so it never lags the code",
}

// A Vietnamese page sends its reader to Vietnamese pages: a link to an
// English page is the page's own English edition (the language switch),
// or a page that has a Vietnamese twin is linked through that twin, or the
// page is one of englishOnlyPages and the line says so. Every local link
// resolves to a file.
func TestVietnamesePagesLinkToVietnamesePages(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	checked := 0
	for _, f := range vietnameseFiles(t, root) {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			for _, m := range link.FindAllStringSubmatch(line, -1) {
				target, _, _ := strings.Cut(m[1], "#")
				if target == "" || strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				checked++
				to := path.Clean(path.Join(path.Dir(f), target))
				if _, err := os.Stat(filepath.Join(root, to)); err != nil {
					t.Errorf("%s:%d: the link %s leads nowhere (%s)", f, i+1, m[1], to)
					continue
				}
				if !isEnglishPage(to) || to == englishOf(f) {
					continue
				}
				vi := twin(to)
				if _, err := os.Stat(filepath.Join(root, vi)); err == nil {
					t.Errorf("%s:%d: links the English %s; link its Vietnamese twin %s", f, i+1, to, vi)
				} else if _, ok := englishOnlyPages[to]; !ok || !strings.Contains(line, "tiếng Anh") {
					t.Errorf("%s:%d: links the English %s, which has no Vietnamese twin (%s): write it, or list it in englishOnlyPages with why and say \"tiếng Anh\" beside the link", f, i+1, to, vi)
				}
			}
		}
	}
	if checked == 0 {
		t.Error("no local link in a Vietnamese page: the test read nothing")
	}
}

// isEnglishPage: a Markdown page or a deck that is not itself Vietnamese.
func isEnglishPage(p string) bool {
	if !strings.HasSuffix(p, ".md") && !strings.HasSuffix(p, ".slide") {
		return false
	}
	return !strings.Contains(p, ".vi.") && !strings.HasPrefix(p, "docs/vi/") && !strings.HasPrefix(p, "slides/vi/")
}

// englishOf is the English edition of a Vietnamese page (twin's inverse).
func englishOf(vi string) string {
	switch {
	case strings.HasPrefix(vi, "docs/vi/"):
		return "docs/" + strings.TrimPrefix(vi, "docs/vi/")
	case strings.HasPrefix(vi, "slides/vi/"):
		return "slides/" + strings.TrimPrefix(vi, "slides/vi/")
	}
	return strings.Replace(vi, ".vi.", ".", 1)
}
