package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/peakload/workshop/internal/messages"
)

// The service-free pass prints a failing test as go test would, and lists
// the tests left for the services.
func TestReadShort(t *testing.T) {
	stream := strings.Join([]string{
		`{"Action":"run","Test":"TestNotModified"}`,
		`{"Action":"output","Test":"TestNotModified","Output":"=== RUN   TestNotModified\n"}`,
		`{"Action":"output","Test":"TestNotModified","Output":"    check_test.go:31: NotModified(*) = false, want true\n"}`,
		`{"Action":"output","Test":"TestNotModified","Output":"--- FAIL: TestNotModified (0.00s)\n"}`,
		`{"Action":"fail","Test":"TestNotModified"}`,
		`{"Action":"output","Test":"TestPolling","Output":"    stacktest.go:30: needs PostgreSQL: skipped under -short (…)\n"}`,
		`{"Action":"skip","Test":"TestPolling"}`,
		`{"Action":"output","Test":"TestOther","Output":"    x_test.go:1: not on this OS\n"}`,
		`{"Action":"skip","Test":"TestOther"}`,
		`{"Action":"fail"}`,
	}, "\n")
	var out strings.Builder
	skipped, failed := readShort(strings.NewReader(stream), &out)
	if !failed || !slices.Equal(skipped, []string{"TestPolling"}) {
		t.Errorf("failed %v, skipped %v; want true, [TestPolling]", failed, skipped)
	}
	if want := "--- FAIL: TestNotModified (0.00s)\n    check_test.go:31: NotModified(*) = false, want true\n"; out.String() != want {
		t.Errorf("printed %q, want %q", out.String(), want)
	}
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
