// Package crashtest lets a check survive the code it checks: a learner's
// answer that crashes the process (a panic re-raised in another goroutine,
// a map written by two goroutines: "concurrent map writes") would otherwise
// kill the whole test binary with a stack trace instead of failing one test
// with a message that says what went wrong.
package crashtest

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

const env = "PEAKLOAD_CRASHTEST_CHILD"

// skipped is what a child prints when its test skipped: without it the
// parent would report a test that never ran as passed.
const skipped = "crashtest: the test skipped in its child process"

// Isolated runs the calling test again in a child process and reports its
// outcome as this test's. It returns false in the child, which runs the
// test's body, and true in the parent, which must return at once:
//
//	if crashtest.Isolated(t, "a cache shared by goroutines needs a lock") { return }
//
// advice is added to the message when the child crashed.
func Isolated(t *testing.T, advice string) bool {
	t.Helper()
	if os.Getenv(env) == t.Name() {
		t.Cleanup(func() {
			if t.Skipped() {
				fmt.Println(skipped)
			}
		})
		return false
	}
	args := []string{"-test.run=^" + t.Name() + "$", "-test.count=1", "-test.timeout=60s"}
	if testing.Short() {
		args = append(args, "-test.short") // the child skips what the parent would skip
	}
	cmd := exec.CommandContext(t.Context(), os.Args[0], args...)
	cmd.Env = append(os.Environ(), env+"="+t.Name())
	out, err := cmd.CombinedOutput()
	text := string(out)
	if err == nil {
		if strings.Contains(text, skipped) {
			t.Skipf("skipped in its child process (go test -v -run '^%s$' says why)", t.Name())
		}
		return true
	}
	for crash, kind := range map[string]string{"panic: ": "an unrecovered panic", "fatal error: ": "the Go runtime stopped it"} {
		if i := strings.Index(text, crash); i >= 0 {
			what, _, _ := strings.Cut(text[i+len(crash):], "\n")
			t.Fatalf("the process crashed, %s (%s): a server running this code would be down.\n%s", kind, strings.TrimSpace(what), advice)
		}
	}
	var failures []string
	for _, line := range strings.Split(text, "\n") {
		if l := strings.TrimSpace(line); l != "" && l != skipped && !strings.HasPrefix(l, "--- FAIL") && l != "FAIL" && !strings.HasPrefix(l, "=== ") {
			failures = append(failures, l)
		}
	}
	t.Fatal("\n" + strings.Join(failures, "\n"))
	return true
}
