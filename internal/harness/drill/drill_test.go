package drill

import (
	"strings"
	"testing"
)

// The verdicts the drills print, both ways: a report that loses, doubles
// or errs must not read as passed.
func TestWriteVerdict(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    Report
		ok   bool
		says string
	}{
		{"events all stored once", Report{Accepted: 100, Persisted: 100, Idempotent: true}, true, "persisted == accepted"},
		{"events lost", Report{Accepted: 100, Persisted: 99, Idempotent: true}, false, "LOST 1"},
		{"events stored twice", Report{Accepted: 100, Persisted: 101, Idempotent: true}, false, "TWICE"},
		{"counters at-least-once", Report{Accepted: 100, Persisted: 103}, true, "3 increments applied TWICE"},
		{"counters lost", Report{Accepted: 100, Persisted: 97}, false, "LOST 3"},
		{"a 5xx", Report{Accepted: 100, Persisted: 100, Idempotent: true, ServerErrors: 1}, false, "NOT proven"},
		{"nothing accepted", Report{Idempotent: true}, false, "NOT proven"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.r.OK(); got != tc.ok {
				t.Fatalf("OK() = %v, want %v", got, tc.ok)
			}
			var b strings.Builder
			tc.r.Print(&b)
			if !strings.Contains(b.String(), tc.says) {
				t.Fatalf("the report does not say %q:\n%s", tc.says, b.String())
			}
		})
	}
}

func TestReadVerdict(t *testing.T) {
	up := ReadPhase{Name: "Redis up", Seconds: 1, Requests: 100}
	down := ReadPhase{Name: "Redis down", Seconds: 1, Requests: 50, FailOpenPerReq: 1, DBQPerReq: 1}
	if !(ReadReport{Phases: []ReadPhase{up, down, up}}).OK() {
		t.Fatal("three phases without 5xx judged failed")
	}
	bad := down
	bad.ServerErrors = 3
	if (ReadReport{Phases: []ReadPhase{up, bad, up}}).OK() {
		t.Fatal("5xx while Redis was down judged passed")
	}
	if (ReadReport{Phases: []ReadPhase{up}}).OK() {
		t.Fatal("an unfinished drill judged passed")
	}
}
