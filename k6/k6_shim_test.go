package k6_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/harness/scenario"
)

// Stand-ins for k6's modules, enough to run a script's init code and its
// exported functions under Node: http records each request, sleep and check
// do nothing, open reads files next to the script.
var shim = map[string]string{
	"node_modules/k6/package.json": `{"name":"k6","type":"module","exports":{".":"./index.js","./http":"./http.js","./metrics":"./metrics.js"}}`,
	"node_modules/k6/metrics.js":   `class M { add() {} } export class Gauge extends M {} export class Trend extends M {} export class Counter extends M {} export class Rate extends M {}`,
	"node_modules/k6/index.js":     `export function check(v, sets) { for (const f of Object.values(sets)) f(v); return true; } export function sleep() {}`,
	"node_modules/k6/http.js": `export const calls = globalThis.__calls = [];
function res(method, url, params) { calls.push({ method, url, headers: (params && params.headers) || {} }); return { status: 200, headers: { Etag: 'W/"1"' }, body: '' }; }
export default { get: (url, params) => res('GET', url, params), post: (url, body, params) => res('POST', url, params),
  expectedStatuses: (...s) => s, setResponseCallback: () => {} };`,
	"run.mjs": `import fs from 'node:fs';
import path from 'node:path';
const script = process.argv[2];
globalThis.__ENV = process.env;
globalThis.__VU = 1;
globalThis.open = (p) => fs.readFileSync(path.resolve(path.dirname(script), p), 'utf8');
const mod = await import(path.resolve(script));
const out = {};
for (const [name, sc] of Object.entries(mod.options.scenarios)) {
  if (name.endsWith('_warmup') || sc.exec === 'meter' || sc.exec === 'settle') continue; // the meter and settle read /metrics
  globalThis.__calls.length = 0;
  for (let i = 0; i < 3; i++) mod[sc.exec]();
  out[sc.exec] = globalThis.__calls.map((c) => c.method + ' ' + new URL(c.url).pathname + (c.headers['If-None-Match'] ? ' +inm' : ''));
}
console.log(JSON.stringify(out));`,
}

// TestScriptsDoWhatTheGoDriverDoes runs every step's k6 script under Node
// with the shim and compares it with the Go scenario: the same variants, in
// the same order, on the same routes.
func TestScriptsDoWhatTheGoDriverDoes(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: k6 scripts not run")
	}
	dir := t.TempDir()
	for name, src := range shim {
		p := filepath.Join(dir, name)
		_ = os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	scripts, _ := filepath.Glob("*.js")
	libs, _ := filepath.Glob("lib/*")
	for _, f := range append(scripts, libs...) {
		b, _ := os.ReadFile(f)
		_ = os.MkdirAll(filepath.Join(dir, filepath.Dir(f)), 0o755)
		_ = os.WriteFile(filepath.Join(dir, f), b, 0o644)
	}
	env := scenario.Env{Params: params.Load(), Tool: "go"}
	for _, step := range scenario.All() {
		script := fmt.Sprintf("%02d-%s.js", step.N, step.Slug)
		// A step whose variants run on servers of their own (step 9: one per
		// framework or pool size) is one k6 run per server, told which by
		// the same variables: FRAMEWORK=fasthttp, PG_POOL=2.
		// Step 0's shell layers are such runs too (SHELL=bare), beside the
		// shared server's rows (no variable).
		var runs [][]string
		for _, v := range step.Variants(env) {
			if !slices.ContainsFunc(runs, func(r []string) bool { return slices.Equal(r, v.Server) }) {
				runs = append(runs, v.Server)
			}
		}
		got := map[string][]string{}
		for _, extra := range runs {
			cmd := exec.Command(node, "run.mjs", script)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), extra...)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Errorf("%s %v: %v\n%s", script, extra, err, out)
				continue
			}
			var one map[string][]string
			if err := json.Unmarshal(out, &one); err != nil {
				t.Errorf("%s %v: %v\n%s", script, extra, err, out)
				continue
			}
			for k, v := range one {
				got[k] = v
			}
		}
		var names []string
		for _, v := range step.Variants(env) {
			if v.Direct != nil {
				continue // no HTTP (raw database baselines): the Go driver only
			}
			exec := strings.ReplaceAll(string(v.Name), "-", "_")
			names = append(names, exec)
			calls := got[exec]
			if len(calls) == 0 {
				t.Errorf("%s has no scenario for the Go variant %s", script, v.Name)
				continue
			}
			method, pattern, _ := strings.Cut(v.Route, " ")
			re := regexp.MustCompile("^" + method + " " + regexp.MustCompile(`:[a-z]+`).ReplaceAllString(pattern, `[^/ ]+`) + "( \\+inm)?$")
			for _, c := range calls {
				if !re.MatchString(c) {
					t.Errorf("%s %s requests %q, the Go driver %s", script, exec, c, v.Route)
				}
			}
			if v.Pace > 0 && !slices.ContainsFunc(calls, func(c string) bool { return strings.HasSuffix(c, "+inm") }) && strings.Contains(string(v.Name), "etag") {
				t.Errorf("%s %s never sends If-None-Match back", script, exec)
			}
		}
		if len(got) != len(names) {
			t.Errorf("%s runs %d variants, the Go scenario %d (%v)", script, len(got), len(names), names)
		}
	}
}
