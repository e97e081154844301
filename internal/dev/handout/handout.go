// Package handout is `make handout`: every slide deck printed to PDF with
// Chromium, and the learner's one-page cheat sheet beside them.
package handout

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"golang.org/x/tools/present"

	"github.com/peakload/workshop/internal/harness/chromium"
	"github.com/peakload/workshop/internal/harness/config"
)

// Chromium's flags for printing: headless, no profile, no background
// traffic. The proxy is a closed port so a deck's web font (present asks
// Google Fonts for one) fails at once instead of leaving the machine;
// Chromium never proxies loopback, so present itself is reached.
var chromiumFlags = []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
	"--disable-component-update", "--disable-sync", "--no-first-run", "--proxy-server=127.0.0.1:9"}

// Run prints every deck to results/handout/NN-slug.pdf, one page
// per slide, and all of them into results/handout/peakload.pdf. With
// -lang vi it prints the Vietnamese decks (slides/vi/) into
// results/handout/vi/; the cheat sheet stays English in both.
func Run(ctx context.Context, cfg config.Config, args []string) error {
	fs := flag.NewFlagSet("handout", flag.ContinueOnError)
	lang := fs.String("lang", "en", "the decks' language: en (slides/) or vi (slides/vi/)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	deckDir, out, err := handoutDirs(*lang, cfg.ResultsDir)
	if err != nil {
		return err
	}
	browser, err := chromium.Find()
	if err != nil {
		return err
	}
	decks, err := deckFiles(deckDir)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	// Beside the decks, so their relative .code and .image paths hold.
	all := filepath.Join(deckDir, ".handout-all.slide")
	if err := os.WriteFile(all, []byte(combine(decks)), 0o644); err != nil {
		return err
	}
	defer os.Remove(all)

	p, err := startPresent(ctx, "slides")
	if err != nil {
		return err
	}
	defer p.stop()
	profile, err := os.MkdirTemp("", "peakload-chromium-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(profile)

	if err := printCheatSheet(ctx, browser, profile, out, cfg.ResultsDir); err != nil {
		return err
	}
	return printDecks(ctx, browser, profile, p.url, decks, all, out)
}

// printCheatSheet prints the learner's one-page cheat sheet into out, and
// warns when it no longer fits on one page.
func printCheatSheet(ctx context.Context, browser, profile, out, results string) error {
	sheet, err := writeCheatSheet(out, results)
	if err != nil {
		return err
	}
	sheetPDF := filepath.Join(out, "cheatsheet.pdf")
	switch pages, err := printPDF(ctx, browser, profile, "file://"+sheet, sheetPDF); {
	case err != nil:
		return fmt.Errorf("the cheat sheet: %w", err)
	case pages != 1:
		fmt.Printf("wrote %s — warning: %d pages, not one\n", sheetPDF, pages)
	default:
		fmt.Printf("wrote %s (the learner's one page)\n", sheetPDF)
	}
	return nil
}

// printDecks prints each deck, as present serves it at url, into out: one
// page per slide (a page count that differs says a slide overflows); then
// all, every deck combined, as peakload.pdf.
func printDecks(ctx context.Context, browser, profile, url string, decks []string, all, out string) error {
	for _, d := range append(decks, all) {
		pdf := filepath.Join(out, strings.TrimSuffix(filepath.Base(d), ".slide")+".pdf")
		if d == all {
			pdf = filepath.Join(out, "peakload.pdf")
		}
		rel, _ := filepath.Rel("slides", d) // present serves slides/ at its root
		pages, err := printPDF(ctx, browser, profile, url+"/"+filepath.ToSlash(rel), pdf)
		if err != nil {
			return fmt.Errorf("%s: %w", d, err)
		}
		fmt.Printf("wrote %s (%d pages)\n", pdf, pages)
		if slides, err := countSlides(d); err == nil && pages != slides {
			fmt.Printf("  warning: %d slides (title and closing included) but %d pages: a slide overflows, and is cut on screen\n", slides, pages)
		}
	}
	return nil
}

// handoutDirs are the decks' directory and the PDFs' for a language.
func handoutDirs(lang, results string) (decks, out string, err error) {
	switch lang {
	case "en", "":
		return "slides", filepath.Join(results, "handout"), nil
	case "vi":
		return filepath.Join("slides", "vi"), filepath.Join(results, "handout", "vi"), nil
	}
	return "", "", fmt.Errorf("-lang %q: the decks exist in en (slides/) and vi (slides/vi/)", lang)
}

// deckFiles lists the decks in teaching order: the welcome, then the
// steps' (named as their steps/NN-slug directories).
func deckFiles(dir string) ([]string, error) {
	decks, err := filepath.Glob(filepath.Join(dir, "[0-9][0-9]-*.slide"))
	if err != nil || len(decks) == 0 {
		return nil, fmt.Errorf("no decks in %s/ (run from the repository's top)", dir)
	}
	welcome := filepath.Join(dir, "00-welcome.slide")
	if i := slices.Index(decks, welcome); i > 0 {
		decks = append([]string{welcome}, slices.Delete(decks, i, i+1)...)
	}
	return decks, nil
}

// combine makes one deck of all the decks: the first deck's title block,
// then each deck's slides behind a divider slide naming it. Decks live in
// one directory, so their relative .code and .image paths stay valid.
func combine(decks []string) string {
	var b strings.Builder
	for i, d := range decks {
		src, err := os.ReadFile(d)
		if err != nil {
			continue
		}
		text := string(src)
		head, body := text, ""
		if j := strings.Index(text, "\n* "); j >= 0 {
			head, body = text[:j+1], text[j+1:]
		}
		if i == 0 {
			b.WriteString(head)
		} else {
			title, _, _ := strings.Cut(head, "\n")
			fmt.Fprintf(&b, "* %s\n\n", title)
		}
		b.WriteString(body)
		if !strings.HasSuffix(body, "\n") {
			b.WriteString("\n")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// countSlides is the number of pages a deck should print to: its slides,
// its title slide and present's closing slide.
func countSlides(deck string) (int, error) {
	f, err := os.Open(deck)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	doc, err := (&present.Context{ReadFile: os.ReadFile}).Parse(f, deck, 0)
	if err != nil {
		return 0, err
	}
	return len(doc.Sections) + 2, nil
}

var pdfPage = regexp.MustCompile(`/Type\s*/Page[\s/>]`)

// printPDF prints one page of present's print layout to file and counts
// the PDF's pages.
func printPDF(ctx context.Context, browser, profile, url, file string) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	args := append(append([]string{}, chromiumFlags...), "--user-data-dir="+profile, "--no-pdf-header-footer",
		"--virtual-time-budget=10000", "--print-to-pdf="+file, url)
	if b, err := exec.CommandContext(ctx, browser, args...).CombinedOutput(); err != nil {
		return 0, fmt.Errorf("chromium: %w\n%s", err, b)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return 0, err
	}
	return len(pdfPage.FindAll(b, -1)), nil
}

// presentServer is Go's present tool serving a content directory on a free
// loopback port, with its print style amended (see presentBase).
type presentServer struct {
	url  string
	cmd  *exec.Cmd
	base string
}

func startPresent(ctx context.Context, content string) (*presentServer, error) {
	base, err := presentBase()
	if err != nil {
		return nil, err
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := l.Addr().String()
	l.Close()
	// Built, not run with `go tool present`: that runs it as a grandchild,
	// which killing the go command would leave serving.
	bin := filepath.Join(base, "present")
	if out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, "golang.org/x/tools/cmd/present").CombinedOutput(); err != nil {
		os.RemoveAll(base)
		return nil, fmt.Errorf("building present: %w\n%s", err, out)
	}
	cmd := exec.CommandContext(ctx, bin, "-http", addr, "-base", base, "-content", content, "-play=false")
	if err := cmd.Start(); err != nil {
		os.RemoveAll(base)
		return nil, fmt.Errorf("present: %w", err)
	}
	p := &presentServer{url: "http://" + addr, cmd: cmd, base: base}
	deadline := time.Now().Add(time.Minute)
	for {
		if resp, err := http.Get(p.url + "/"); err == nil {
			resp.Body.Close()
			return p, nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			p.stop()
			return nil, fmt.Errorf("present did not answer on %s", addr)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func (p *presentServer) stop() {
	if p.cmd.Process != nil {
		p.cmd.Process.Kill()
		p.cmd.Wait()
	}
	os.RemoveAll(p.base)
}

// presentBase copies present's templates and static files (from the module
// cache: present is a tool of go.mod) and adds one print rule: present ends
// every slide with a page break, which leaves a blank last page.
func presentBase() (string, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "golang.org/x/tools").Output()
	if err != nil {
		return "", fmt.Errorf("locating present's files (go list -m golang.org/x/tools): %w", err)
	}
	src := filepath.Join(strings.TrimSpace(string(out)), "cmd", "present")
	base, err := os.MkdirTemp("", "peakload-present-")
	if err != nil {
		return "", err
	}
	err = filepath.Walk(src, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if info.IsDir() {
			return os.MkdirAll(filepath.Join(base, rel), 0o755)
		}
		if !strings.HasPrefix(rel, "static") && !strings.HasPrefix(rel, "templates") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if rel == filepath.Join("static", "styles.css") {
			b = append(b, "\n@media print { .slides > article:last-of-type { page-break-after: auto; } }\n"...)
		}
		return os.WriteFile(filepath.Join(base, rel), b, 0o644)
	})
	if err != nil {
		os.RemoveAll(base)
		return "", err
	}
	return base, nil
}
