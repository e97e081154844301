package scaffold

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/format"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/peakload/workshop/internal/dev/routesjs"
	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/harness/course"
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
// manifest (internal/harness/course/steps.go), its scenario file
// (internal/harness/scenario/stepNN.go) and its claims' tests beside it
// (stepNN_test.go). The list is derived from a
// copy of the tree, not declared; the skeleton compiles and vets, its
// untouched exercise fails its check with a message and the reference
// passes it.
func TestNewStepTouchesAtMostThreeSharedFiles(t *testing.T) {
	dst := t.TempDir()
	orig := copyTree(t, dst)
	const slug, fn = "demo-step", "Take"
	files, err := New(dst, slug, fn)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files { // FUNC names the exercise everywhere: no placeholder is left to rename
		if b, _ := os.ReadFile(filepath.Join(dst, f)); f != Manifest && regexp.MustCompile(`\b`+DefaultFunc+`\b`).Match(b) {
			t.Errorf("%s still names the exercise %s after New(…, %q)", f, DefaultFunc, fn)
		}
	}
	s := course.Step{N: len(course.All()), Slug: slug}
	changed := touched(t, dst, orig)
	var shared []string
	for _, f := range changed {
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
		return // the builds below take ~15 s on a warm cache
	}
	checkSkeleton(t, dst, s, changed)
}

// checkSkeleton builds the scaffolded step in the real tree, not in the
// copy: a tree at another path misses the build cache for every package
// (object files embed their paths), which cost two minutes. The go
// command sees the scaffolder's Go files through -overlay, so only the new
// packages and those importing a changed one compile. Limits of -overlay
// (go help build) and how they are met here:
//   - a running test binary reads the real disk: the binaries are built
//     with -c and run from the copy, where the non-Go files (READMEs, k6
//     scripts, decks) exist;
//   - it carries Go source only: a changed file that go:embed reads fails
//     the test instead of passing unseen (none today);
//   - vet runs inside the package's directory, which a new package has only
//     in the copy: the new packages are vetted there (their imports compile
//     at the copy's path, a few seconds); creating their directories in the
//     real tree would race the tests that list steps/ and solutions/.
func checkSkeleton(t *testing.T, dst string, s course.Step, changed []string) {
	real, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	replace := map[string]string{}
	pkgs := map[string]bool{} // the packages the scaffolder wrote Go files into
	for _, f := range changed {
		if strings.HasSuffix(f, ".go") {
			replace[filepath.Join(real, f)] = filepath.Join(dst, f)
			pkgs["./"+filepath.ToSlash(filepath.Dir(f))+"/"] = true
		}
	}
	var vetReal, vetCopy []string // vet runs inside a package's directory: the new ones exist only in the copy
	for _, pkg := range slices.Sorted(maps.Keys(pkgs)) {
		if _, err := os.Stat(filepath.Join(real, pkg)); err == nil {
			vetReal = append(vetReal, pkg)
		} else {
			vetCopy = append(vetCopy, pkg)
		}
	}
	overlay := filepath.Join(t.TempDir(), "overlay.json")
	b, _ := json.Marshal(map[string]any{"Replace": replace})
	if err := os.WriteFile(overlay, b, 0o644); err != nil {
		t.Fatal(err)
	}
	gocmd := func(wantOK bool, args ...string) string {
		args = append(args[:1:1], append([]string{"-overlay", overlay}, args[1:]...)...)
		return run(t, real, wantOK, "go", args...)
	}
	embedded := sync.OnceValue(func() string { // listed only if a shared non-Go file changed
		return gocmd(true, "list", "-f", `{{range .EmbedFiles}}{{$.Dir}}/{{.}}{{"\n"}}{{end}}`, "./...")
	})
	for _, f := range changed {
		if _, err := os.Stat(filepath.Join(real, f)); err == nil && !strings.HasSuffix(f, ".go") {
			if strings.Contains(embedded(), filepath.Join(real, f)+"\n") {
				t.Errorf("%s is embedded and changed: -overlay cannot show it to the build; build the copy instead", f)
			}
		}
	}
	bin := t.TempDir()
	build := func(name, pkg string, tags ...string) []string {
		return append([]string{"test", "-c", "-vet=off", "-ldflags=-s -w", "-o", filepath.Join(bin, name)}, append(tags, pkg)...)
	}
	var wg sync.WaitGroup // independent go commands: on 2 CPUs the links overlap the compiles
	wg.Go(func() { gocmd(true, append([]string{"vet"}, vetReal...)...) })
	wg.Go(func() { run(t, dst, true, "go", append([]string{"vet"}, vetCopy...)...) }) // compiles their imports in the copy: a few seconds
	// The packages whose tests read the manifest, the reference runs, the
	// docs or the decks: after the scaffold (and make docs, as make
	// new-step runs it) they pass as they are, the new step marked as
	// having no reference run yet.
	readers := map[string]string{"scenario.test": "./internal/harness/scenario/", "workshop.test": "./cmd/workshop/", "slides.test": "./slides/",
		"docs.test": "./internal/dev/docs/", "gate.test": "./internal/dev/gate/", "handout.test": "./internal/dev/handout/",
		"houserules.test": "./internal/dev/houserules/", "originalstest.test": "./internal/dev/originalstest/"}
	for _, args := range [][]string{
		build("course.test", "./internal/harness/course/"),
		build("exercise.test", "./"+s.Dir()+"/"),
		build("solution.test", "./"+s.Dir()+"/", "-tags", "solution"),
		{"build", "-o", filepath.Join(bin, "workshop-dev"), "./cmd/workshop-dev/"},
	} {
		wg.Go(func() { gocmd(true, args...) })
	}
	for name, pkg := range readers {
		wg.Go(func() { gocmd(true, build(name, pkg, "-tags", "solution")...) })
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	for _, f := range changed {
		if b, _ := os.ReadFile(filepath.Join(dst, f)); strings.HasSuffix(f, ".go") {
			if formatted, err := format.Source(b); err != nil || !bytes.Equal(formatted, b) {
				t.Errorf("%s is not gofmt'ed (%v)", f, err)
			}
		}
	}
	run(t, dst, true, filepath.Join(bin, "workshop-dev"), "docs")
	run(t, filepath.Join(dst, "internal/harness/course"), true, filepath.Join(bin, "course.test"), "-test.short")
	for name, pkg := range readers {
		run(t, filepath.Join(dst, pkg), true, filepath.Join(bin, name), "-test.short")
	}
	out := run(t, filepath.Join(dst, s.Dir()), false, filepath.Join(bin, "exercise.test")) // the untouched exercise fails its check
	if !t.Failed() && !regexp.MustCompile(`--- FAIL: \S+[\s\S]*_test\.go:\d+: \S`).MatchString(out) {
		t.Errorf("the untouched exercise failed its check without a message:\n%s", out)
	}
	run(t, filepath.Join(dst, s.Dir()), true, filepath.Join(bin, "solution.test")) // the reference passes it
}

// run runs name in dir and fails the test unless it succeeds exactly when wantOK.
func run(t *testing.T, dir string, wantOK bool, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	start := time.Now()
	out, err := cmd.CombinedOutput()
	t.Logf("%s %s: %.1fs", filepath.Base(name), strings.Join(args, " "), time.Since(start).Seconds())
	if (err == nil) != wantOK {
		t.Errorf("%s %s: ok %v, want %v\n%s", filepath.Base(name), strings.Join(args, " "), err == nil, wantOK, out)
	}
	return string(out)
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

// The skeleton's Vietnamese README keeps the contract's heading in English
// with the note steps 3 on carry (the repository's tests read the English
// words), so a new step follows the convention it will be compared to.
func TestViReadmeKeepsTheContractHeading(t *testing.T) {
	ref, err := os.ReadFile(filepath.Join(root, "steps/03-etag/README.vi.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(ref), "\n## The check asserts\n\n")
	if !ok {
		t.Fatal("steps/03-etag/README.vi.md has no '## The check asserts' heading: the convention this test reads moved")
	}
	note, _, _ := strings.Cut(after, "\n\n")
	if !strings.Contains(readmeViTmpl, "\n## The check asserts\n\n"+note+"\n") {
		t.Errorf("the scaffold's README.vi.md template does not open its contract as steps/03-etag/README.vi.md does (%q, then its note)", "## The check asserts")
	}
}

// A step that also adds a route, a parameter the server and k6 share and a
// Run.Extra figure (issue 35's step 11: /budget, its rate, its 429 share)
// edits one shared file for each, the one CONTRIBUTING names, and nothing
// else by hand: k6/lib/routes.js is generated from the route
// (internal/dev/routesjs, make docs), params.go reads the step's section
// (params.Step), load's measure.go reads the counter beside the key
// (result.CountedPerServed; TestExtrasReadEveryCountedFigure), and the
// busy-machine list is the step's own (Step.KeepOnBusy).
//
// That is six shared files by hand, not three: the scaffolder's three
// (the manifest, stepNN.go, stepNN_test.go), then internal/given/routes,
// k6/lib/params.json and internal/harness/result/keys.go. Each of the last
// three is the one place its fact lives, and no two can merge: a route and a
// parameter are read by the step's server, which imports nothing from
// harness/ (where the manifest and the figures' keys live), and by the
// bench; the parameter by k6 too, which reads JSON, not Go.
func TestARouteAParameterAndAFigureCostOneSharedFileEach(t *testing.T) {
	dst := t.TempDir()
	orig := copyTree(t, dst)
	const slug = "demo-step"
	if _, err := New(dst, slug, "Take"); err != nil {
		t.Fatal(err)
	}
	s := course.Step{N: len(course.All()), Slug: slug}
	edit := func(rel, old, new string) { // one edit by hand, as CONTRIBUTING says
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dst, rel))
		if err != nil || !bytes.Contains(b, []byte(old)) {
			t.Fatalf("%s: no %q to edit after (%v): the place CONTRIBUTING names moved", rel, old, err)
		}
		if err := os.WriteFile(filepath.Join(dst, rel), bytes.Replace(b, []byte(old), []byte(new), 1), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	edit("internal/given/routes/routes.go", "\n// Prefix is", "\n// Step 11's route and header.\nconst (\n\tBudget      = \"/budget\"  // one token bucket per client\n\tClientHeader = \"X-Client\" // names the client\n)\n\n// Prefix is")
	edit("k6/lib/params.json", `"steps": {`, `"steps": {`+"\n    \"demo-step\": {\"rate\": 50, \"burst\": 10},")
	edit("internal/harness/result/keys.go", "var CountedPerServed = map[Key]string{\n", "var CountedPerServed = map[Key]string{\n\tStatus429Share: \"peakload_http_requests_total{status=429}\",\n")
	edit("internal/harness/result/keys.go", "// The write path (steps 6–7)", "// Step 11.\nconst Status429Share Key = \"status_429_share\" // responses 429, of all (0–1)\n\n// The write path (steps 6–7)")

	// What make docs derives: the k6 side of the route and the header.
	js, err := routesjs.Generate(dst)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"export const Budget = '/budget';", "export const ClientHeader = 'X-Client';"} {
		if !bytes.Contains(js, []byte(want)) {
			t.Errorf("routes.js generated from the edited routes.go lacks %q", want)
		}
	}
	if err := os.WriteFile(filepath.Join(dst, routesjs.Path), js, 0o644); err != nil {
		t.Fatal(err)
	}
	// The parameter, read from the edited file by params.go as it is.
	b, err := os.ReadFile(filepath.Join(dst, "k6/lib/params.json"))
	if err != nil {
		t.Fatal(err)
	}
	var p params.Params
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	type budget struct {
		Rate  float64 `json:"rate"`
		Burst int     `json:"burst"`
	}
	if v, err := params.Step[budget](p, slug); err != nil || v.Rate != 50 || v.Burst != 10 {
		t.Errorf("params.Step(%s) on the edited params.json = %+v, %v; want rate 50, burst 10", slug, v, err)
	}

	generated := map[string]bool{routesjs.Path: true}
	var byHand []string
	for _, f := range touched(t, dst, orig) {
		if !OwnFiles(s, f) && !generated[f] {
			byHand = append(byHand, f)
		}
	}
	want := []string{Manifest, fmt.Sprintf("internal/harness/scenario/step%02d.go", s.N), fmt.Sprintf("internal/harness/scenario/step%02d_test.go", s.N),
		"internal/given/routes/routes.go", "internal/harness/result/keys.go", "k6/lib/params.json"}
	slices.Sort(byHand)
	slices.Sort(want)
	t.Logf("step %d with a route, a parameter and a figure: shared files by hand: %v", s.N, byHand)
	if !slices.Equal(byHand, want) {
		t.Errorf("a route, a parameter and a figure: shared files edited by hand %v, want exactly %v (one place per fact)", byHand, want)
	}
}
