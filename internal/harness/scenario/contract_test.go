package scenario

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// contractHeading opens a step README's contract: every property the
// lesson promises, in the learner's words, each with the one test that
// asserts it — or "Not checked:" and why.
const contractHeading = "## The check asserts"

var (
	contractTestName = regexp.MustCompile("`((?:Test|Fuzz)[A-Z][A-Za-z0-9_]*)`")
	notChecked       = regexp.MustCompile(`^- \*{0,2}Not checked[:*]`)
)

// contract reads the bullets of a README's contract section.
func contract(readme string) (bullets []string, ok bool) {
	_, rest, ok := strings.Cut(readme, "\n"+contractHeading+"\n")
	if !ok {
		return nil, false
	}
	if i := strings.Index(rest, "\n## "); i >= 0 {
		rest = rest[:i]
	}
	var cur *string
	for _, line := range strings.Split(rest, "\n") {
		switch {
		case strings.HasPrefix(line, "- "):
			bullets = append(bullets, line)
			cur = &bullets[len(bullets)-1]
		case cur != nil && strings.HasPrefix(line, "  ") && strings.TrimSpace(line) != "":
			*cur += " " + strings.TrimSpace(line) // a wrapped bullet
		default:
			cur = nil
		}
	}
	return bullets, true
}

// stepTests lists the top-level Test and Fuzz functions of a step's
// _test.go files, whatever their build constraints.
func stepTests(t *testing.T, dir string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(root, dir, "*_test.go"))
	var names []string
	for _, f := range files {
		file, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || fn.Name.Name == "TestMain" {
				continue
			}
			if n := fn.Name.Name; (strings.HasPrefix(n, "Test") || strings.HasPrefix(n, "Fuzz")) && !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	slices.Sort(names)
	return names
}

// A learner trusts "check passed" only if it says what passed. Each step
// README holds its contract, and the contract and the check are one list:
// each property names exactly one test, each test of the step is named by
// exactly one property, and a property left unchecked says so (and why).
func TestEachStepsContractNamesItsTests(t *testing.T) {
	for _, m := range manifest() {
		t.Run(filepath.Base(m.Dir()), func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(root, m.Dir(), "README.md"))
			if err != nil {
				t.Fatal(err)
			}
			bullets, ok := contract(string(b))
			if !ok {
				t.Fatalf("%s/README.md has no %q section: list every property the lesson promises, each with the test that asserts it", m.Dir(), contractHeading)
			}
			have := stepTests(t, m.Dir())
			named := map[string]int{}
			for _, bl := range bullets {
				names := contractTestName.FindAllStringSubmatch(bl, -1)
				switch {
				case notChecked.MatchString(bl):
					if len(names) > 0 {
						t.Errorf("a property marked not checked names a test: %q", bl)
					}
				case len(names) != 1:
					t.Errorf("a property names %d tests, want exactly one (or start it with \"Not checked:\"): %q", len(names), bl)
				default:
					named[names[0][1]]++
				}
			}
			for name, n := range named {
				switch {
				case !slices.Contains(have, name):
					t.Errorf("the contract names %s, which is no test of %s (it has %v)", name, m.Dir(), have)
				case n > 1:
					t.Errorf("%s is named by %d properties: one test per property", name, n)
				}
			}
			for _, name := range have {
				if named[name] == 0 {
					t.Errorf("%s: %s is named by none of the contract's %d properties: name it under %q", m.Dir(), name, len(bullets), contractHeading)
				}
			}
		})
	}
}
