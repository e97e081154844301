package scaffold

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/course"
)

const root = "../../.."

// copyTree copies the repository's sources (not .git, not the services'
// data under .workshop) into dst.
func copyTree(t *testing.T, dst string) map[string][]byte {
	t.Helper()
	orig := map[string][]byte{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if rel == ".git" || rel == ".workshop" || rel == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		orig[filepath.ToSlash(rel)] = b
		if err := os.MkdirAll(filepath.Join(dst, filepath.Dir(rel)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return orig
}

// touched lists the files of dst that differ from orig or are new.
func touched(t *testing.T, dst string, orig map[string][]byte) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dst, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dst, path)
		rel = filepath.ToSlash(rel)
		b, _ := os.ReadFile(path)
		if o, ok := orig[rel]; !ok || string(o) != string(b) {
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Adding a step touches at most three files outside its own folders: the
// manifest, its scenario file and one more. The list is derived from a
// copy of the tree, not declared; the skeleton compiles, its untouched
// exercise fails its check and the reference passes it.
func TestNewStepTouchesAtMostThreeSharedFiles(t *testing.T) {
	dst := t.TempDir()
	orig := copyTree(t, dst)
	const slug = "demo-step"
	files, err := New(dst, slug)
	if err != nil {
		t.Fatal(err)
	}
	s := course.Step{N: len(course.All()), Slug: slug}
	var shared []string
	for _, f := range touched(t, dst, orig) {
		if !OwnFiles(s, f) {
			shared = append(shared, f)
		}
	}
	t.Logf("step %d: shared files touched: %v", s.N, shared)
	if len(shared) > 3 {
		t.Errorf("adding step %d touched %d files outside its folders (want ≤ 3): %v", s.N, len(shared), shared)
	}
	for _, f := range shared {
		if !slices.Contains(files, f) {
			t.Errorf("%s changed but New did not report it", f)
		}
	}
	if testing.Short() {
		return // the builds below take a minute on a cold cache
	}
	run := func(wantOK bool, args ...string) string {
		cmd := exec.Command("go", args...)
		cmd.Dir = dst
		out, err := cmd.CombinedOutput()
		if (err == nil) != wantOK {
			t.Errorf("go %s: ok %v, want %v\n%s", strings.Join(args, " "), err == nil, wantOK, out)
		}
		return string(out)
	}
	run(true, "vet", "./internal/course/", "./internal/scenario/", "./"+s.Dir()+"/")
	run(true, "test", "-run", "TestEveryEntryHasItsParts|TestK6ScriptsRunTheDeclaredVariants", "./internal/course/")
	run(false, "test", "./"+s.Dir()+"/")                     // the untouched exercise fails its check
	run(true, "test", "-tags", "solution", "./"+s.Dir()+"/") // the reference passes it
}

func TestSlugs(t *testing.T) {
	for slug, ok := range map[string]bool{"rate-limit": true, "x2": true, "": false, "Rate": false, "-a": false, "a-": false, "a_b": false, "2a": false} {
		if validSlug(slug) != ok {
			t.Errorf("validSlug(%q) = %v", slug, !ok)
		}
	}
	if camel("rate-limit") != "RateLimit" {
		t.Errorf("camel(rate-limit) = %s", camel("rate-limit"))
	}
}
