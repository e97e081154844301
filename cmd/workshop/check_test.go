package main

import (
	"cmp"
	"context"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/config"
	"github.com/peakload/workshop/internal/harness/scenario"
	"github.com/peakload/workshop/internal/harness/stacktest"
	"github.com/peakload/workshop/internal/harness/stacktest/mongotest"
)

// A pass prints a failing test as go test would, says a skip, and counts a
// test the binary never finished (a watchdog's os.Exit) as failed, with
// what it printed.
func TestReadTests(t *testing.T) {
	stream := strings.Join([]string{
		`{"Action":"run","Test":"TestNotModified"}`,
		`{"Action":"output","Test":"TestNotModified","Output":"=== RUN   TestNotModified\n"}`,
		`{"Action":"output","Test":"TestNotModified","Output":"    check_test.go:31: NotModified(*) = false, want true\n"}`,
		`{"Action":"output","Test":"TestNotModified","Output":"--- FAIL: TestNotModified (0.00s)\n"}`,
		`{"Action":"fail","Test":"TestNotModified"}`,
		`{"Action":"run","Test":"TestPolling"}`,
		`{"Action":"pass","Test":"TestPolling"}`,
		`{"Action":"run","Test":"TestOther"}`,
		`{"Action":"output","Test":"TestOther","Output":"    x_test.go:1: not on this OS\n"}`,
		`{"Action":"skip","Test":"TestOther"}`,
		`{"Action":"run","Test":"TestStuck"}`,
		`{"Action":"output","Test":"TestStuck","Output":"the watchdog: blocked on a mutex\n"}`,
		`{"Action":"fail"}`,
	}, "\n")
	var out strings.Builder
	ran, failed, stalled := readTests(strings.NewReader(stream), &out)
	want := map[string]string{"TestNotModified": "fail", "TestPolling": "pass", "TestOther": "skip", "TestStuck": "fail"}
	if !failed || stalled || !maps.Equal(ran, want) {
		t.Errorf("failed %v, stalled %v, ran %v; want true, false, %v", failed, stalled, ran, want)
	}
	for _, said := range []string{
		"--- FAIL: TestNotModified (0.00s)\n    check_test.go:31: NotModified(*) = false, want true\n",
		messages.T("check.skipped", "TestOther", "x_test.go:1: not on this OS"),
		messages.T("check.unfinished", "TestStuck") + "the watchdog: blocked on a mutex\n",
	} {
		if !strings.Contains(out.String(), said) {
			t.Errorf("printed %q, want it to contain %q", out.String(), said)
		}
	}
}

// A test that gave up waiting on the machine (bubble.Stalled) makes the
// pass a stall, not a failure, and its marker line is not shown.
func TestReadTestsTellsAStallFromAFailure(t *testing.T) {
	stream := strings.Join([]string{
		`{"Action":"run","Test":"TestShutdown"}`,
		`{"Action":"output","Test":"TestShutdown","Output":"    settled.go:138: ` + messages.StallMark + `\n"}`,
		`{"Action":"output","Test":"TestShutdown","Output":"    settled.go:139: TestShutdown stopped waiting\n"}`,
		`{"Action":"output","Test":"TestShutdown","Output":"--- FAIL: TestShutdown (30.00s)\n"}`,
		`{"Action":"fail","Test":"TestShutdown"}`,
		`{"Action":"fail"}`,
	}, "\n")
	var out strings.Builder
	_, failed, stalled := readTests(strings.NewReader(stream), &out)
	if !failed || !stalled {
		t.Errorf("failed %v, stalled %v; want both true", failed, stalled)
	}
	if strings.Contains(out.String(), messages.StallMark) || !strings.Contains(out.String(), "stopped waiting") {
		t.Errorf("printed %q: want the test's words without the marker line", out.String())
	}
}

// The two passes of `make step-N check SOLUTION=1` together run every
// top-level test of every step's package (as `go test -list` names them,
// fuzz tests too: go test runs their seeds) and each passes: none skipped, none left to a pass that never runs it,
// none reported as passed by a parent process whose child skipped it. It
// runs every step's check on the reference with the services, so make
// test runs the steps' tests through it rather than a second time.
func TestEveryStepsCheckRunsEveryTest(t *testing.T) {
	stacktest.Postgres(t)
	stacktest.Redis(t)
	mongotest.Store(t)
	t.Chdir(filepath.Join("..", ".."))
	parsed, err := config.FromEnv() // the running stack, as make step-N check parses it
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Config{Solution: true, Stack: parsed.Stack}
	for _, step := range scenario.All() {
		t.Run(filepath.Base(step.Dir()), func(t *testing.T) {
			listed := listTests(t, "./"+step.Dir()+"/")
			var out strings.Builder
			ran, err := checkPasses(t.Context(), cfg, step, func() error { return nil }, &out)
			for _, name := range listed {
				if ran[name] != "pass" {
					t.Errorf("%s: %s in the check's two passes, want pass", name, cmp.Or(ran[name], "never run"))
				}
			}
			for _, name := range step.ServiceTests {
				if !slices.Contains(listed, name) {
					t.Errorf("ServiceTests lists %s, and the package has no such test", name)
				}
			}
			for name := range ran {
				if !slices.Contains(listed, name) {
					t.Errorf("%s ran, and go test -list does not name it", name)
				}
			}
			if err != nil || t.Failed() {
				t.Errorf("make step-%d check SOLUTION=1: %v; it printed:\n%s", step.N, err, out.String())
			}
		})
	}
}

// listTests is `go test -list` of pkg's top-level tests and fuzz tests, on
// the reference.
func listTests(t *testing.T, pkg string) []string {
	t.Helper()
	out, err := exec.CommandContext(t.Context(), "go", "test", "-tags", "solution", "-list", "^(Test|Fuzz)", pkg).Output()
	if err != nil {
		t.Fatalf("go test -list %s: %v", pkg, err)
	}
	var tests []string
	for l := range strings.Lines(string(out)) {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, "Test") || strings.HasPrefix(l, "Fuzz") {
			tests = append(tests, l)
		}
	}
	return tests
}

// A save is seen once it has settled; nothing else wakes the watcher.
func TestWaitForChange(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "exercise.go")
	if err := os.WriteFile(file, []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	seen := snapshot(dir)
	go func() {
		time.Sleep(200 * time.Millisecond)
		_ = os.WriteFile(file, []byte("package main // saved\n"), 0o644)
	}()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	now, ok := waitForChange(ctx, dir, seen)
	if !ok || now[file] == seen[file] {
		t.Fatalf("the save was not seen (ok %v)", ok)
	}
	ctx, cancel = context.WithTimeout(t.Context(), 1200*time.Millisecond)
	defer cancel()
	if _, ok := waitForChange(ctx, dir, now); ok {
		t.Error("woke up with no change")
	}
}

// The second pass's announcement agrees in number with its tests, in both
// languages ("now the 1 that need services" was the bug).
func TestServicesLineAgreesInNumber(t *testing.T) {
	defer messages.Use(messages.English)()
	if got := servicesLine([]string{"TestA"}); got != "they pass; now the one that needs services: TestA\n" {
		t.Errorf("one test: %q", got)
	}
	if got := servicesLine([]string{"TestA", "TestB"}); got != "they pass; now the 2 that need services: TestA TestB\n" {
		t.Errorf("two tests: %q", got)
	}
	messages.Use(messages.Vietnamese)
	if got := servicesLine([]string{"TestA"}); strings.Contains(got, "1") || !strings.Contains(got, "TestA") {
		t.Errorf("one test, in Vietnamese: %q", got)
	}
}
