package k6

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Every step has a k6 script, and every script is valid JavaScript. k6 is
// not installable everywhere, so Node's parser checks the syntax: the
// scripts are plain ES modules (k6's globals open and __ENV are only names).
func TestScriptsExistAndParse(t *testing.T) {
	steps, _ := filepath.Glob("../steps/[0-9][0-9]-*")
	if len(steps) == 0 {
		t.Fatal("no steps found")
	}
	for _, s := range steps {
		script := filepath.Base(s) + ".js"
		if _, err := os.Stat(script); err != nil {
			t.Errorf("step %s has no k6 script k6/%s", filepath.Base(s), script)
		}
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: k6 scripts not syntax-checked")
	}
	scripts, _ := filepath.Glob("*.js")
	libs, _ := filepath.Glob("lib/*.js")
	for _, js := range append(scripts, libs...) {
		src, err := os.ReadFile(js)
		if err != nil {
			t.Fatal(err)
		}
		mjs := filepath.Join(t.TempDir(), strings.TrimSuffix(filepath.Base(js), ".js")+".mjs")
		if err := os.WriteFile(mjs, src, 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(node, "--check", mjs).CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", js, err, out)
		}
		// routes.js names paths, it sends nothing; getOK (lib/common.js) sends to BASE_URL.
		if js != filepath.Join("lib", "routes.js") && !strings.Contains(string(src), "BASE_URL") && !strings.Contains(string(src), "getOK(") {
			t.Errorf("%s uses neither BASE_URL nor getOK", js)
		}
	}
}
