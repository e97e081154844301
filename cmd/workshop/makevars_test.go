package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/harness/config"
)

// TestMakeVariablesReachTheTeamVerbs runs each team verb's make target as
// the README shows it (make audit URL=… QUERIES=…), with a stub in place of
// the workshop binary that prints its arguments and environment: every
// variable must reach the CLI, under a name the CLI reads (its one parse,
// config.Names), and compare's A, B and DIR must become its flags. A
// rename on either side — the README's variable, a flag's default, the
// recipe's arguments — fails here, without building or starting anything.
func TestMakeVariablesReachTheTeamVerbs(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make on PATH")
	}
	stub := filepath.Join(t.TempDir(), "workshop")
	if err := os.WriteFile(stub, []byte("#!/bin/sh\necho \"ARGS $*\"\nenv\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	read := readsEnv(t)
	for _, tc := range []struct {
		target string
		vars   map[string]string
		args   string
	}{
		{"probe", map[string]string{"URL": "http://127.0.0.1:1/x", "REQUESTS": "r.jsonl", "METRICS": "http://127.0.0.1:1/metrics",
			"PER_REQUEST": "a_total,b_.*", "ALLOW_REMOTE": "1", "RUNS": "3", "CAPACITY": "1", "VUS": "7", "DURATION": "2s", "QUICK": "1"}, "probe"},
		{"audit", map[string]string{"URL": "http://127.0.0.1:1/x", "POST": "/events", "METRICS": "http://127.0.0.1:1/metrics",
			"QUERIES": "q_total", "COLD": "/items/9", "CHANGE": "POST /items/9", "BURST_POST": "1", "BODY": "{}", "ALLOW_REMOTE": "1",
			"COLD_N": "20", "SLOWLORIS": "5s", "BURST": "2s"}, "audit"},
		{"grade", map[string]string{"GRADE_BASE": "abc123", "GRADE_STEPS": "2,3"}, "grade"},
		{"progress", map[string]string{"FORMAT": "json"}, "progress"},
		{"compare", map[string]string{"DIR": "team/"}, "compare -dir team/"},
		{"compare", map[string]string{"A": "a.json", "B": "b.json"}, "compare -a a.json -b b.json"},
	} {
		args := []string{"-s", "-o", "build", tc.target, "WORKSHOP=" + stub}
		for k, v := range tc.vars {
			args = append(args, k+"="+v)
		}
		cmd := exec.Command("make", args...)
		cmd.Dir = "../.."
		cmd.Env = append(os.Environ(), "MAKEFLAGS=", "MAKELEVEL=")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("make %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		got := string(out)
		if !strings.Contains(got, "ARGS "+tc.args+"\n") {
			t.Errorf("make %s ran the CLI with %q, want ARGS %s", tc.target, firstLine(got), tc.args)
		}
		for k, v := range tc.vars {
			if tc.target == "compare" {
				continue // passed as flags, checked above
			}
			if !strings.Contains(got, "\n"+k+"="+v+"\n") {
				t.Errorf("make %s %s=%s: %s does not reach the CLI's environment (the Makefile's export line)", tc.target, k, v, k)
			}
			if !read[k] {
				t.Errorf("make %s passes %s, but the CLI's configuration (config.Names) does not read it", tc.target, k)
			}
		}
	}
}

// readsEnv is every variable the CLI's configuration reads: the one parse
// (config.Names), the verbs' flag defaults included.
func readsEnv(t *testing.T) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for _, name := range config.Names() {
		out[name] = true
	}
	return out
}

func firstLine(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }

// TestHelpREADMEAndConfigurationAgree: the variables `make help` lists are
// the Makefile header's, each one the CLI's configuration reads
// (config.Names) and both READMEs document (`NAME=`); each variable the
// READMEs' bench paragraph names is in the help; and every variable the
// Makefile exports to the CLI is one the configuration reads. A variable
// added, renamed or dropped on one side fails here, naming it.
func TestHelpREADMEAndConfigurationAgree(t *testing.T) {
	read := func(path string) string {
		b, err := os.ReadFile(filepath.Join("..", "..", path))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	mk := read("Makefile")
	names := regexp.MustCompile(`\b([A-Z][A-Z0-9_]*)=`)
	vars := func(text string) []string {
		var out []string
		for _, m := range names.FindAllStringSubmatch(text, -1) {
			if !slices.Contains(out, m[1]) {
				out = append(out, m[1])
			}
		}
		slices.Sort(out)
		return out
	}
	help := vars(regexp.MustCompile(`(?m)^\t@echo "  \$\(HELP_VARS_\$\(BUILD_LANG\)\):(.*)"$`).FindString(mk))
	header := vars(regexp.MustCompile(`(?m)^# Variables:(.*\n)(#  .*\n)*`).FindString(mk))
	if len(help) == 0 || !slices.Equal(help, header) {
		t.Errorf("TestHelpREADMEAndConfigurationAgree: make help lists %v, the Makefile's header %v: want the same", help, header)
	}
	configured := config.Names()
	for _, v := range help {
		if !slices.Contains(configured, v) {
			t.Errorf("TestHelpREADMEAndConfigurationAgree: make help lists %s, which the CLI's configuration (config.Names) does not read", v)
		}
	}
	for _, readme := range []struct{ path, bench string }{{"README.md", "Bench variables:"}, {"README.vi.md", "Các biến cho bench:"}} {
		text := read(readme.path)
		for _, v := range help {
			if !regexp.MustCompile(`\b` + v + `=`).MatchString(text) {
				t.Errorf("TestHelpREADMEAndConfigurationAgree: make help lists %s, which %s does not document (`%s=…`)", v, readme.path, v)
			}
		}
		_, after, ok := strings.Cut(text, readme.bench)
		paragraph, _, _ := strings.Cut(after, "```")
		if !ok {
			t.Fatalf("TestHelpREADMEAndConfigurationAgree: %s has no %q paragraph", readme.path, readme.bench)
		}
		for _, v := range vars(paragraph) {
			if !slices.Contains(help, v) {
				t.Errorf("TestHelpREADMEAndConfigurationAgree: %s's bench variables name %s, which make help does not list", readme.path, v)
			}
		}
	}
	for _, m := range regexp.MustCompile(`(?m)^export (.*)$`).FindAllStringSubmatch(mk, -1) {
		for _, v := range strings.Fields(m[1]) {
			if !slices.Contains(configured, v) {
				t.Errorf("TestHelpREADMEAndConfigurationAgree: the Makefile exports %s, which the CLI's configuration (config.Names) does not read", v)
			}
		}
	}
}
