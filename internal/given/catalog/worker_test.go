package catalog

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// A failing worker is said, but not at every tick of a 600 ms clock.
func TestWorkerErrorsAreLoggedRateLimited(t *testing.T) {
	var lines []string
	l := errorLog{printf: func(f string, a ...any) { lines = append(lines, fmt.Sprintf(f, a...)) }}
	t0 := time.Now()
	boom := errors.New("connection refused")
	for i := range 10 { // ten failures in 5.4 s at the bench's 600 ms
		l.log(t0.Add(time.Duration(i)*600*time.Millisecond), boom)
	}
	if len(lines) != 2 {
		t.Fatalf("logged %d lines, want 2 (the first, then one %s later):\n%q", len(lines), errorEvery, lines)
	}
	if want := "and 8 more times"; !strings.Contains(lines[1], want) {
		t.Errorf("second line %q does not say %q", lines[1], want)
	}
}
