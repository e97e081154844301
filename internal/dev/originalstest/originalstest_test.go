package originalstest

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/load"
	"github.com/peakload/workshop/internal/harness/original"
	"github.com/peakload/workshop/internal/harness/result"
	"github.com/peakload/workshop/internal/harness/scenario"
)

// TestTestOriginalsFailsARowNotMeasured: test-originals passes a step
// only when each of its original rows was measured cleanly and each
// declared stack has rows; a skipped row fails with the bench's reason.
func TestTestOriginalsFailsARowNotMeasured(t *testing.T) {
	s, err := scenario.Get(9)
	if err != nil {
		t.Fatal(err)
	}
	prog := &original.Program{Runtime: original.Bun, Script: "d-elysia/server.js"}
	rows := []load.Variant{
		{Name: course.FrameworkRow(course.Express, "empty"), Original: &original.Program{Runtime: original.Node, Script: "d-express/server.js"}},
		{Name: course.FrameworkRow(course.Elysia, "empty"), Original: prog},
	}
	run := func(name course.Variant) result.Run { return result.Run{Variant: name, Requests: 10} }
	good := &result.Result{Step: 9, Runs: []result.Run{run(rows[0].Name), run(rows[1].Name)},
		Claims: []result.Claim{{ID: "D2-node"}}, Machine: result.Machine{Runtimes: map[string]string{"node": "20"}}}
	if err := originalsMeasured(s, rows, good); err != nil {
		t.Errorf("every row measured: %v", err)
	}
	skipped := *good
	skipped.Runs = skipped.Runs[:1]
	skipped.Notes = []string{"the rows of " + prog.String() + " skipped: that server did not start (no Bun)"}
	if err := originalsMeasured(s, rows, &skipped); err == nil || !strings.Contains(err.Error(), "no Bun") {
		t.Errorf("a skipped row: %v, want its reason", err)
	}
	erred := *good
	erred.Runs = []result.Run{run(rows[0].Name), {Variant: rows[1].Name, Requests: 10, Errors: 1, FirstError: "reset"}}
	if err := originalsMeasured(s, rows, &erred); err == nil || !strings.Contains(err.Error(), "1 errors") {
		t.Errorf("a row with an error: %v", err)
	}
	if err := originalsMeasured(s, rows[:1], good); err == nil || !strings.Contains(err.Error(), "no elysia-… row") {
		t.Errorf("a declared stack without rows: %v", err)
	}
	if err := originalsMeasured(s, nil, &result.Result{}); err == nil || strings.Contains(err.Error(), "runtime") {
		t.Errorf("no rows at all: %v, want only the stacks without rows", err)
	}
	bare := *good
	bare.Machine.Runtimes = nil
	if err := originalsMeasured(s, rows, &bare); err == nil {
		t.Error("a run that records no runtime passed")
	}
}

// TestTestVerdictsFailsSkipsAndEmptyRuns: a skipped original test fails
// test-originals (they must run on CI), and so does finding none; a
// failure prints what its subtests said, where a table test's message is.
func TestTestVerdictsFailsSkipsAndEmptyRuns(t *testing.T) {
	lines := func(s ...string) *bufio.Scanner { return bufio.NewScanner(strings.NewReader(strings.Join(s, "\n"))) }
	pass := `{"Action":"pass","Package":"p","Test":"TestOriginalA"}`
	if err := testVerdicts(lines(pass, `{"Action":"pass","Package":"p","Test":"TestOriginalA/sub"}`), io.Discard); err != nil {
		t.Errorf("one pass: %v", err)
	}
	skip := `{"Action":"skip","Package":"p","Test":"TestOriginalB"}`
	if err := testVerdicts(lines(pass, skip), io.Discard); err == nil || !strings.Contains(err.Error(), "skip p.TestOriginalB") {
		t.Errorf("a skip: %v", err)
	}
	if err := testVerdicts(lines(`{"Action":"pass","Package":"p"}`), io.Discard); err == nil {
		t.Error("no test ran, and it passed")
	}
	var printed strings.Builder
	err := testVerdicts(lines(
		`{"Action":"output","Package":"p","Test":"TestOriginalC/koa","Output":"    c_test.go:9: the server said no\n"}`,
		`{"Action":"fail","Package":"p","Test":"TestOriginalC/koa"}`,
		`{"Action":"fail","Package":"p","Test":"TestOriginalC"}`), &printed)
	if err == nil || !strings.Contains(printed.String(), "the server said no") || strings.Count(printed.String(), "fail ") != 1 {
		t.Errorf("a failing subtest: error %v, printed %q; want one verdict line and the subtest's message", err, printed.String())
	}
}

// TestTestOriginalsFindsTheTestsByName: the packages are found from
// the test functions' names, outside originals/ and testdata/.
func TestTestOriginalsFindsTheTestsByName(t *testing.T) {
	root := t.TempDir()
	write := func(path, text string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, path)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, path), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("internal/a/a_test.go", "package a\n\nfunc TestOriginalFastify(t *testing.T) {}\n")
	write("internal/b/b_test.go", "package b\n\nfunc TestOther(t *testing.T) {}\n")
	write("steps/01-x/testdata/mutants/m_test.go", "package m\n\nfunc TestOriginalNo(t *testing.T) {}\n")
	write("originals/node_modules/x/y_test.go", "package y\n\nfunc TestOriginalNo(t *testing.T) {}\n")
	pkgs, err := originalTestPackages(root)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(pkgs, " ") != "./internal/a/" {
		t.Errorf("found %v, want [./internal/a/]", pkgs)
	}
}
