package main

import (
	"errors"
	"strings"
	"testing"
)

// The gate reads a check's output as a learner would, and judges it.
func TestGateJudgesWhatTheLearnerReads(t *testing.T) {
	exit1 := errors.New("exit status 1")
	const failed = "--- FAIL: TestNotModified (0.00s)\n    check_test.go:31: NotModified(x) = false, want true\nFAIL\n"
	for _, tc := range []struct {
		name, kind, out string
		err             error
		want            string // "" when the gate is satisfied; else a word of its complaint
	}{
		{"mutant fails with a message", "mutant", failed, exit1, ""},
		{"mutant passes", "mutant", "PASS\n", nil, "PASSES"},
		{"mutant panics", "mutant", "--- FAIL: TestX (0.00s)\npanic: runtime error: index out of range [-1]\n", exit1, "panicked"},
		{"mutant times out", "mutant", "panic: test timed out after 1m30s\n", exit1, "timed out"},
		{"mutant crashes the binary", "mutant", "=== RUN   TestX\nfatal error: concurrent map read and map write\n\ngoroutine 61 [running]:\n", errors.New("exit status 2"), "crashed (fatal error: concurrent map read and map write)"},
		{"mutant fails to set up", "mutant", "FAIL\tgithub.com/x [setup failed]\n", exit1, "without a `--- FAIL` line"},
		{"valid passes", "valid", "PASS\n", nil, ""},
		{"valid rejected", "valid", failed, exit1, "a right answer is rejected: TestNotModified: check_test.go:31"},
		{"untouched exercise fails", "untouched", failed, exit1, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := judge(&variant{kind: tc.kind}, readOutcome(tc.out, tc.err))
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("gate complains: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("gate says %v, want a complaint with %q", err, tc.want)
			}
		})
	}
	t.Run("the first failing subtest", func(t *testing.T) {
		const out = "--- FAIL: TestContract (0.10s)\n    --- FAIL: TestContract/yours (0.00s)\n        check_test.go:50: GET /empty: 404, want 200\n"
		if got := readOutcome(out, exit1).firstFail; got != "TestContract/yours: check_test.go:50: GET /empty: 404, want 200" {
			t.Errorf("firstFail = %q", got)
		}
	})
	t.Run("a message on the line after file:line", func(t *testing.T) {
		const out = "--- FAIL: TestX (0.10s)\n    check_test.go:162: \n        a failed load reached no waiter\n        more\n"
		if got := readOutcome(out, exit1).firstFail; got != "TestX: check_test.go:162: a failed load reached no waiter" {
			t.Errorf("firstFail = %q", got)
		}
	})
	t.Run("first failing test with its first line", func(t *testing.T) {
		if got := readOutcome(failed, exit1).firstFail; got != "TestNotModified: check_test.go:31: NotModified(x) = false, want true" {
			t.Errorf("firstFail = %q", got)
		}
	})
}
