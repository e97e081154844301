package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// `make help` speaks the reader's language with no Go build: each target's
// English is its `## ` comment in the Makefile, its Vietnamese one line of
// docs/vi/make-help.txt ("target<TAB>line"), read by the recipe's awk.

const makeHelpVi = "docs/vi/make-help.txt"

// viHelpLines are docs/vi/make-help.txt's lines by target, in order.
func viHelpLines(t *testing.T) (map[string]string, []string) {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", makeHelpVi))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lines, order := map[string]string{}, []string(nil)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := sc.Text(); l != "" && !strings.HasPrefix(l, "#") {
			target, line, ok := strings.Cut(l, "\t")
			if !ok || strings.TrimSpace(line) == "" {
				t.Errorf("%s: %q is not `target<TAB>its Vietnamese line`", makeHelpVi, l)
				continue
			}
			if _, dup := lines[target]; dup {
				t.Errorf("%s: %s twice", makeHelpVi, target)
			}
			lines[target], order = line, append(order, target)
		}
	}
	return lines, order
}

// TestEveryMakeTargetHasItsVietnameseLine: every target `make help` lists
// has its Vietnamese line, and every Vietnamese line a target.
func TestEveryMakeTargetHasItsVietnameseLine(t *testing.T) {
	vi, order := viHelpLines(t)
	targets := makeTargets(t)
	for _, target := range targets {
		if _, ok := vi[target]; !ok {
			t.Errorf("make %s has a `## ` line and none in %s: PEAKLOAD_LANG=vi make help would print its English", target, makeHelpVi)
		}
	}
	for _, target := range order {
		if !slices.Contains(targets, target) {
			t.Errorf("%s: %s is no documented target of the Makefile (renamed, or its `## ` dropped): remove or rename the line", makeHelpVi, target)
		}
	}
}

// TestMakeHelpSpeaksTheReadersLanguage runs `make help` under each
// language: the Vietnamese prints every target's line from the file, the
// English none of them.
func TestMakeHelpSpeaksTheReadersLanguage(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make on PATH")
	}
	vi, _ := viHelpLines(t)
	run := func(lang string) string {
		cmd := exec.Command("make", "-s", "-C", filepath.Join("..", ".."), "help")
		cmd.Env = append(os.Environ(), "PEAKLOAD_LANG="+lang, "LANG=C")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("PEAKLOAD_LANG=%s make help: %v\n%s", lang, err, out)
		}
		return string(out)
	}
	viOut, enOut := run("vi"), run("en")
	for target, line := range vi {
		if !strings.Contains(viOut, line) {
			t.Errorf("PEAKLOAD_LANG=vi make help: no line %q for make %s in:\n%s", line, target, viOut)
		}
		if strings.Contains(enOut, line) {
			t.Errorf("PEAKLOAD_LANG=en make help prints make %s's Vietnamese %q", target, line)
		}
	}
}
