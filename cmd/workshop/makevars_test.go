package main

import (
	"github.com/peakload/workshop/internal/harness/cli"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestMakeVariablesReachTheTeamVerbs runs each team verb's make target as
// the README shows it (make audit URL=… QUERIES=…), with a stub in place of
// the workshop binary that prints its arguments and environment: every
// variable must reach the CLI, under a name the CLI reads (os.Getenv in
// this package), and compare's A, B and DIR must become its flags. A
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
				t.Errorf("make %s passes %s, but no os.Getenv(%q) in cmd/workshop reads it", tc.target, k, k)
			}
		}
	}
}

// readsEnv is every variable name this package reads with os.Getenv or
// os.LookupEnv.
func readsEnv(t *testing.T) map[string]bool {
	t.Helper()
	files, _ := filepath.Glob("*.go")
	re := regexp.MustCompile(`os\.(?:Getenv|LookupEnv)\("([A-Z_0-9]+)"\)`)
	out := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			out[m[1]] = true
		}
	}
	for _, name := range cli.Names() { // the configuration, parsed once
		out[name] = true
	}
	return out
}

func firstLine(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }
