package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocsAreCurrent fails when a generated region of a README or of docs/
// differs from what `make docs` writes from results/reference/: re-recording
// a reference run without regenerating the prose is caught here.
func TestDocsAreCurrent(t *testing.T) {
	root := filepath.Join("..", "..")
	refs, err := loadReferences(root)
	if err != nil {
		t.Fatal(err)
	}
	files, err := docFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	regions := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		regions += strings.Count(string(b), "<!-- reference:")
		out, err := refs.fill(string(b))
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if out != string(b) {
			t.Errorf("%s: generated figures differ from results/reference/: run `make docs`", f)
		}
	}
	if regions == 0 {
		t.Error("no <!-- reference:… --> region found: the generator checks nothing")
	}
}

// TestFillReplacesOnlyRegions: text outside the markers is kept byte for
// byte, an unknown region is an error (a typo must not pass silently).
func TestFillReplacesOnlyRegions(t *testing.T) {
	refs, err := loadReferences(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	in := "before\n<!-- reference:step-1 -->\nstale 645\n<!-- /reference -->\nafter\n"
	out, err := refs.fill(in)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out, "before\n<!-- reference:step-1 -->\n") || !strings.HasSuffix(out, "<!-- /reference -->\nafter\n") || strings.Contains(out, "stale") {
		t.Errorf("fill rewrote outside its region or kept the stale text:\n%s", out)
	}
	if !strings.Contains(out, "A1") {
		t.Errorf("step-1 region lacks its claim A1:\n%s", out)
	}
	if _, err := refs.fill("<!-- reference:step-99 -->\n<!-- /reference -->"); err == nil {
		t.Error("an unknown region was accepted")
	}
}
