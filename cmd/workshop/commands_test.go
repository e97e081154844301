package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The command list is written once, in main.go's commands table. The
// Makefile's `##` lines (what `make help` prints) and the READMEs' command
// tables are held to it here, and the README's Layout section to the tree.

// makeTargets are the Makefile's documented targets, in order, as `make
// help` finds them (the same pattern as its awk).
func makeTargets(t *testing.T) []string {
	b, err := os.ReadFile(filepath.Join("..", "..", "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range regexp.MustCompile(`(?m)^([a-zA-Z0-9_%-]+):.*## `).FindAllStringSubmatch(string(b), -1) {
		out = append(out, m[1])
	}
	return out
}

// makeOnly are the documented targets that run no workshop verb: the
// Makefile's own, and the maintainer's (cmd/workshop-dev).
var makeOnly = map[string]string{
	"help": "make's", "build": "make's", "prefetch": "make's", "prefetch-originals": "make's (npm ci)", "slides": "go tool present", "clean": "make's",
	"compose-bench": "docker compose", "test-compose": "compose/test-compose.sh",
	"test": "workshop-dev", "test-latency": "workshop-dev", "test-originals": "workshop-dev", "docs": "workshop-dev", "agenda": "workshop-dev", "test-busy": "workshop-dev", "mutants": "workshop-dev", "handout": "workshop-dev",
	"new-step": "cmd/new-step",
}

// Every verb a learner reaches through make has its target and `##` line;
// every documented target runs a verb or is named above.
func TestMakefileMatchesTheCommands(t *testing.T) {
	targets := makeTargets(t)
	for _, c := range commands {
		if c.target != "" && !slices.Contains(targets, c.target) {
			t.Errorf("workshop %s: no `%s: … ## …` line in the Makefile (make help would not list it)", c.name, c.target)
		}
	}
	for _, target := range targets {
		runs := slices.ContainsFunc(commands, func(c command) bool { return c.target == target })
		if _, ok := makeOnly[target]; !ok && !runs {
			t.Errorf("make %s: documented, but no workshop command names it as its target (main.go's commands) nor is it in makeOnly", target)
		}
	}
}

// commandRows are the first cells of a README's command table (the table
// under its second-level heading "Commands" or "Các lệnh").
func commandRows(t *testing.T, file, heading string) []string {
	b, err := os.ReadFile(filepath.Join("..", "..", file))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n## "+heading+"\n")
	if !ok {
		t.Fatalf("%s: no section %q", file, heading)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var rows []string
	for _, m := range regexp.MustCompile("(?m)^\\| `(make [^`]*)` \\|").FindAllStringSubmatch(section, -1) {
		rows = append(rows, m[1])
	}
	return rows
}

// targetOf is the make target a README row runs: `make step-3 check` →
// check, `make step-3` → step-%, `make probe URL=…` → probe.
func targetOf(row string) string {
	f := strings.Fields(strings.TrimPrefix(row, "make "))
	if strings.HasPrefix(f[0], "step-") {
		if len(f) > 1 && !strings.Contains(f[1], "=") {
			return f[1]
		}
		return "step-%"
	}
	return f[0]
}

// Both READMEs' command tables list every documented target, and only
// those, in the same rows.
func TestREADMECommandTables(t *testing.T) {
	targets := makeTargets(t)
	en := commandRows(t, "README.md", "Commands")
	listed := map[string]bool{}
	for _, row := range en {
		target := targetOf(row)
		listed[target] = true
		if !slices.Contains(targets, target) {
			t.Errorf("README.md's command table: %q runs make %s, which has no `##` line in the Makefile", row, target)
		}
	}
	for _, target := range targets {
		if !listed[target] {
			t.Errorf("make %s: in make help, missing from README.md's command table", target)
		}
	}
	if vi := commandRows(t, "README.vi.md", "Các lệnh"); !slices.Equal(en, vi) {
		t.Errorf("README.vi.md's command table differs from README.md's:\n  en: %q\n  vi: %q", en, vi)
	}
}

// The README's Layout section names every command and package, and
// nothing that is gone.
func TestREADMELayoutListsEveryPackage(t *testing.T) {
	root := filepath.Join("..", "..")
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(b), "\n## Layout\n")
	_, block, _ := strings.Cut(section, "```\n")
	block, _, _ = strings.Cut(block, "```")
	listed := map[string]bool{}
	house := "" // an indented line names a package of the house above it
	for _, line := range strings.Split(strings.TrimSpace(block), "\n") {
		path := strings.TrimSuffix(strings.Fields(line)[0], "/")
		if strings.HasPrefix(line, "  ") {
			path = house + "/" + path
		} else {
			house = path
		}
		listed[path] = true
		if _, err := os.Stat(filepath.Join(root, strings.Split(path, "NN")[0])); !strings.Contains(path, "NN") && err != nil {
			t.Errorf("README.md's Layout lists %s, which is not in the tree", path)
		}
	}
	for _, glob := range []string{"cmd/*", "internal/*/*"} {
		dirs, _ := filepath.Glob(filepath.Join(root, glob))
		for _, d := range dirs {
			rel, _ := filepath.Rel(root, d)
			if gos, _ := filepath.Glob(filepath.Join(d, "*.go")); len(gos) > 0 && !listed[filepath.ToSlash(rel)] {
				t.Errorf("README.md's Layout does not list %s", filepath.ToSlash(rel))
			}
		}
	}
}
