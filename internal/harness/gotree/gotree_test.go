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

// Consts keeps the constants of every const block, in order, with their
// trailing comments, and nothing a var or type declares.
func TestConstsAreTheFilesConstantsInOrder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.go")
	src := "package x\n\nconst A = \"a\" // first\n\nvar V = 1\n\nconst (\n\tB = 2\n\tC = \"c\"\n)\n\ntype T int\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	specs, err := Consts(path)
	if err != nil {
		t.Fatalf("Consts(%s): %v", path, err)
	}
	var names []string
	for _, s := range specs {
		names = append(names, s.Names[0].Name)
	}
	if !slices.Equal(names, []string{"A", "B", "C"}) {
		t.Fatalf("Consts: %v, want [A B C]", names)
	}
	if specs[0].Comment == nil || specs[0].Comment.Text() != "first\n" {
		t.Errorf("Consts: A's trailing comment lost (%v), want \"first\"", specs[0].Comment)
	}
}
