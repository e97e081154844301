// Package scaffold writes a new step's skeleton, as rustlings' `dev new`
// does: its own folders (steps/NN-slug with README, exercise, check and
// hints, solutions/NN-slug, k6/NN-slug.js, the decks), its entry in
// internal/harness/course/steps.go, internal/harness/scenario/stepNN.go and
// its claims' tests, stepNN_test.go. The skeleton
// compiles and its untouched exercise fails its check; the reference
// passes it. `make new-step SLUG=…` runs it.
package scaffold

import (
	"bytes"
	"fmt"
	"go/format"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"text/template"

	"github.com/peakload/workshop/internal/harness/course"
)

// Manifest is the file that declares every step: New appends the entry here.
const Manifest = "internal/harness/course/steps.go"

// marker is the manifest's last line of the steps table: the new entry
// goes right before it.
const marker = "\n}\n"

// Step is what the templates know of the new step.
type Step struct {
	course.Step
	Pkg     string // the reference's package name: the slug without dashes
	Variant string // the Go constant naming its one row
	Exec    string // the k6 function of its row: the slug with _ for - (k6/lib/common.js)
	Func    string // the exercise's function (FUNC=Take), "Answer" by default: named once, here
}

// DefaultFunc names the exercise's function when FUNC is not given.
const DefaultFunc = "Answer"

// New writes step N (the next free number) called slug under root, its
// exercise the function fn (DefaultFunc when ""), and returns the files it
// wrote, relative to root. fn is written everywhere the skeleton names the
// exercise — main.go, exercise.go, the reference and its swap, the check,
// both READMEs and both decks' .code lines — so renaming it later is not
// nine edits.
func New(root, slug, fn string) ([]string, error) {
	if !validSlug(slug) {
		return nil, fmt.Errorf("slug %q: lower case letters, digits and dashes, starting with a letter", slug)
	}
	if fn == "" {
		fn = DefaultFunc
	}
	if !token.IsExported(fn) || !token.IsIdentifier(fn) {
		return nil, fmt.Errorf("func %q: an exported Go identifier (Take), the exercise's function", fn)
	}
	all := course.All()
	s := Step{Step: course.Step{N: len(all), Slug: slug, Exercise: true}, Pkg: strings.ReplaceAll(slug, "-", ""), Variant: camel(slug), Exec: strings.ReplaceAll(slug, "-", "_"), Func: fn}
	for _, have := range all {
		if have.Slug == slug {
			return nil, fmt.Errorf("step %d is already called %q", have.N, slug)
		}
	}
	if _, err := os.Stat(filepath.Join(root, s.Dir())); err == nil {
		return nil, fmt.Errorf("%s exists", s.Dir())
	}
	var written []string
	for _, f := range files(s) {
		b, err := render(f.tmpl, s)
		if err != nil {
			return written, fmt.Errorf("%s: %w", f.path, err)
		}
		if err := write(root, f.path, b); err != nil {
			return written, err
		}
		written = append(written, f.path)
	}
	if err := appendEntry(root, s); err != nil {
		return written, err
	}
	return append(written, Manifest), nil
}

// appendEntry adds the step's variant constant and entry to the manifest.
func appendEntry(root string, s Step) error {
	path := filepath.Join(root, Manifest)
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("the manifest: %w", err)
	}
	i := bytes.LastIndex(b, []byte(marker))
	if i < 0 {
		return fmt.Errorf("%s: no closing brace of the steps table", Manifest)
	}
	entry, err := render(entryTmpl, s)
	if err != nil {
		return err
	}
	out := append(append(append([]byte{}, b[:i+1]...), entry...), b[i+1:]...)
	constant, err := render(constTmpl, s)
	if err != nil {
		return err
	}
	return write(root, Manifest, append(out, constant...))
}

// write writes a file of the skeleton, Go source gofmt'ed (the gate in
// make test runs gofmt over the tree, scaffolded steps included).
func write(root, rel string, b []byte) error {
	if strings.HasSuffix(rel, ".go") {
		formatted, err := format.Source(b)
		if err != nil {
			return fmt.Errorf("scaffold: %s: %w", rel, err)
		}
		b = formatted
	}
	path := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("scaffold: %w", err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("scaffold: %w", err)
	}
	return nil
}

func render(text string, s Step) ([]byte, error) {
	t, err := template.New("").Parse(text)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	err = t.Execute(&b, s)
	return b.Bytes(), err
}

func validSlug(slug string) bool {
	if slug == "" || slug[0] < 'a' || slug[0] > 'z' || strings.HasSuffix(slug, "-") {
		return false
	}
	for _, r := range slug {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '-' {
			return false
		}
	}
	return true
}

// camel is the slug as a Go identifier: rate-limit → RateLimit.
func camel(slug string) string {
	var b strings.Builder
	for _, part := range strings.Split(slug, "-") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}

// OwnFiles says whether rel belongs to step s's own folders: what adding
// a step may create freely, as opposed to the shared files it touches.
func OwnFiles(s course.Step, rel string) bool {
	rel = filepath.ToSlash(rel)
	base := fmt.Sprintf("%02d-%s", s.N, s.Slug)
	for _, dir := range []string{s.Dir() + "/", s.SolutionDir() + "/"} {
		if strings.HasPrefix(rel, dir) {
			return true
		}
	}
	return rel == s.K6Script() || rel == s.Deck() || rel == "slides/vi/"+base+".slide"
}
