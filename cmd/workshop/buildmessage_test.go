package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestBuildMessageCountsTheCLIsPackages: `make build` tells a learner how
// many packages the first compile of the CLI is, so a long first wait is
// expected. The figure is written in the Makefile — counting it there
// would add a second to every first bench — and held here within 5 % of
// what go list counts, so it follows the CLI's imports.
func TestBuildMessageCountsTheCLIsPackages(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`the first time: about (\d+) packages`).FindSubmatch(b)
	vi := regexp.MustCompile(`lần đầu: khoảng (\d+) package`).FindSubmatch(b)
	if m == nil || vi == nil {
		t.Fatal("the Makefile's build message no longer says, in both languages, how many packages the CLI compiles")
	}
	said, _ := strconv.Atoi(string(m[1]))
	if saidVi, _ := strconv.Atoi(string(vi[1])); saidVi != said {
		t.Errorf("the Makefile's build message says about %d packages in English and %d in Vietnamese", said, saidVi)
	}
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	n := strings.Count(string(out), "\n")
	if d := said - n; d*20 > n || -d*20 > n {
		t.Errorf("the Makefile says about %d packages; go list -deps ./cmd/workshop counts %d: say about %d", said, n, (n+5)/10*10)
	}
}
