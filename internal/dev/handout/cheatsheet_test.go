package handout

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestCheatSheetIsGenerated: the sheet carries the Makefile's own words for
// each command, Little's law, and every claim of the reference runs with
// its source and tolerance.
func TestCheatSheetIsGenerated(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	help, err := makeHelp(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	rs, err := referenceClaims(filepath.Join(root, "results"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) == 0 {
		t.Fatal("no reference runs")
	}
	sheet := cheatSheet(help, rs)
	for _, want := range []string{"make step-N bench", "make compare", "L = λ × W"} {
		if !strings.Contains(sheet, want) {
			t.Errorf("the cheat sheet lacks %q", want)
		}
	}
	for _, r := range rs {
		for _, c := range r.Claims {
			if !strings.Contains(sheet, "<b>"+c.ID+"</b>") {
				t.Errorf("claim %s is missing", c.ID)
			}
			if c.Tolerance == "" {
				t.Errorf("claim %s has no tolerance to print", c.ID)
			}
		}
	}
}
