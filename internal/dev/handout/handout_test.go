package handout

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/harness/chromium"
	"golang.org/x/tools/present"
)

// TestHandoutOnePagePerSlide prints all the decks, combined as `make
// handout` combines them, in one Chromium run, and counts one PDF page per
// slide: a slide whose content overflows (and is cut on screen) adds a page.
// Each edition is printed: Vietnamese runs longer than English, and
// `make handout LANG=vi` prints it.
func TestHandoutOnePagePerSlide(t *testing.T) {
	browser, err := chromium.Find()
	if err != nil || testing.Short() {
		t.Skip("no Chromium (CI installs it) or -short")
	}
	t.Chdir(filepath.Join("..", "..", ".."))
	for _, edition := range []string{"", "vi"} {
		t.Run("slides/"+edition, func(t *testing.T) { onePagePerSlide(t, browser, edition) })
	}
}

// onePagePerSlide prints one edition's decks (edition "" is the English
// one in slides/, "vi" the one in slides/vi/) as one combined deck, served
// from slides/ as `make handout` serves them, and counts the pages.
func onePagePerSlide(t *testing.T, browser, edition string) {
	dir := filepath.Join("slides", edition)
	decks, err := deckFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(decks[0], "00-welcome.slide") {
		t.Errorf("the handout starts with %s, not the welcome deck", decks[0])
	}
	src := combine(decks)
	doc, err := (&present.Context{ReadFile: os.ReadFile}).Parse(strings.NewReader(src), filepath.Join(dir, "x.slide"), 0)
	if err != nil {
		t.Fatalf("the combined deck does not parse: %v", err)
	}
	slides := 0
	for _, d := range decks {
		f, err := os.Open(d)
		if err != nil {
			t.Fatal(err)
		}
		one, err := (&present.Context{ReadFile: os.ReadFile}).Parse(f, d, 0)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		slides += len(one.Sections)
	}
	if want := slides + len(decks) - 1; len(doc.Sections) != want {
		t.Errorf("the combined deck has %d slides, want %d (every deck's, and a divider per deck after the first)", len(doc.Sections), want)
	}
	name := ".handout-test.slide"
	if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(filepath.Join(dir, name))
	ctx := context.Background()
	p, err := startPresent(ctx, "slides")
	if err != nil {
		t.Fatal(err)
	}
	defer p.stop()
	tmp := t.TempDir()
	url := p.url + "/" + path.Join(edition, name)
	pages, err := printPDF(ctx, browser, filepath.Join(tmp, "profile"), url, filepath.Join(tmp, "all.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	// The title slide and present's closing slide are pages too.
	if want := len(doc.Sections) + 2; pages != want {
		t.Errorf("%d PDF pages for %d slides: a slide overflows its page (see `make handout`, per deck)", pages, want)
	}
}

func TestHandoutLanguages(t *testing.T) {
	t.Chdir(filepath.Join("..", "..", ".."))
	decks, out, err := handoutDirs("vi", "results")
	if err != nil || decks != filepath.Join("slides", "vi") || !strings.HasSuffix(out, filepath.Join("handout", "vi")) {
		t.Errorf("-lang vi: decks %q, PDFs %q, %v", decks, out, err)
	}
	if _, _, err := handoutDirs("fr", "results"); err == nil {
		t.Error("-lang fr was accepted: there are no French decks")
	}
	vi, err := deckFiles(decks)
	if err != nil {
		t.Fatal(err)
	}
	src := combine(vi)
	if _, err := (&present.Context{ReadFile: os.ReadFile}).Parse(strings.NewReader(src), filepath.Join(decks, "x.slide"), 0); err != nil {
		t.Errorf("the combined Vietnamese deck does not parse in %s: %v", decks, err)
	}
}
