package crashtest

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
)

// Every caller of every round runs; a wrong answer fails the test with its
// round, its words and want.
func TestAtOnceRunsEveryCallerAndNamesTheWrongOne(t *testing.T) {
	var calls atomic.Int64
	AtOnce(t, 3, 50, "want none wrong", func(round, i int) string { calls.Add(1); return "" })
	if n := calls.Load(); n != 150 {
		t.Errorf("AtOnce(3 rounds, 50 callers) made %d calls, want 150", n)
	}
	rec := &recorder{TB: t}
	AtOnce(rec, 3, 4, "want each key's own value", func(round, i int) string {
		if round == 1 && i == 2 {
			return Wrong("Load(\"k\")", []byte("x"), nil, "k")
		}
		return ""
	})
	if want := `round 1: Load("k") = "x", <nil>; want each key's own value`; rec.msg != want {
		t.Errorf("AtOnce failed with %q, want %q", rec.msg, want)
	}
	if w := Wrong("Get(1)", []byte("a"), nil, "a"); w != "" {
		t.Errorf("Wrong on the right answer = %q, want \"\"", w)
	}
	if w := Wrong("Get(1)", nil, fmt.Errorf("boom"), ""); !strings.Contains(w, "boom") {
		t.Errorf("Wrong on an error = %q, want it to name the error", w)
	}
}

// recorder keeps the first Fatalf instead of ending the test.
type recorder struct {
	testing.TB
	msg string
}

func (r *recorder) Helper() {}

func (r *recorder) Fatalf(format string, args ...any) {
	if r.msg == "" {
		r.msg = fmt.Sprintf(format, args...)
	}
}
