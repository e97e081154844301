package gotree

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The walk enters the code's directories only, and Code leaves the tests out.
func TestFilesSkipWhatIsNotTheTreesCode(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{
		"a.go", "a_test.go", "notes.md", "p/b.go", "p/testdata/mutant.go",
		"node_modules/x/y.go", ".workshop/z.go", "p/.hidden/h.go",
	} {
		path := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("package x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name string
		list func(string) ([]string, error)
		want []string
	}{
		{"Files", Files, []string{"a.go", "a_test.go", "p/b.go"}},
		{"Code", Code, []string{"a.go", "p/b.go"}},
	} {
		paths, err := c.list(root)
		if err != nil {
			t.Fatalf("%s(%s): %v", c.name, root, err)
		}
		var got []string
		for _, p := range paths {
			rel, _ := filepath.Rel(root, p)
			got = append(got, filepath.ToSlash(rel))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s listed %v; want %v (testdata/, node_modules/ and hidden directories are not the tree's code)", c.name, got, c.want)
		}
	}
}

// A root that is itself hidden (a walk from "." or "..") is still walked.
func TestARootNamedLikeAHiddenDirectoryIsWalked(t *testing.T) {
	root := filepath.Join(t.TempDir(), ".root")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "a.go"), []byte("package x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Files(root)
	if err != nil || len(got) != 1 {
		t.Errorf("Files(%s) = %v, %v; want its one a.go", root, got, err)
	}
}
