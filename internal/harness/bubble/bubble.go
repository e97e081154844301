// Package bubble runs a check's test in a testing/synctest bubble (fake
// time, exact however loaded the machine), guarded against the two ways a
// wrong answer breaks one: every goroutine blocked (synctest panics with a
// deadlock) and a goroutine that never waits (fake time cannot move, the
// bubble never ends). Each step passes its own words: what those mean for
// the code the learner wrote.
package bubble

import (
	"fmt"
	"github.com/peakload/workshop/internal/given/serverenv"
	"os"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/peakload/workshop/internal/given/messages"
)

// A check's test binary speaks the learner's language, as the CLI that
// started it does: its messages (a stall, a goroutine dump) are read by the
// same person. serverenv is the one reader of that part of the environment;
// a bad value elsewhere in it is the server's to report, not the check's.
func init() {
	c, _ := serverenv.Load()
	messages.Use(c.Lang)
}

// Test is synctest.Test with synctest's deadlock panic turned into a
// sentence: deadlock says what it means for the step's code (nil, or "",
// to ignore it: the step's cleanup already said which goroutines are
// left). Any other panic is raised again.
func Test(t *testing.T, f func(t *testing.T), deadlock func(err error) string) (said string) {
	t.Helper()
	defer func() {
		p := recover()
		if err, ok := p.(error); ok && strings.HasPrefix(err.Error(), "deadlock") {
			if deadlock != nil {
				said = deadlock(err)
			}
			return
		}
		if p != nil {
			panic(p)
		}
	}()
	synctest.Test(t, f)
	return ""
}

// Watched is Test with a real-time watchdog: if the bubble has not ended
// after limit, the test's failure says so, then stuck's lines (the step's
// words), then what each goroutine of the step's code was doing
// (Goroutines), and the process ends — nothing else could end a goroutine
// that never waits (run the check in a child process, internal/harness/crashtest,
// to keep the others). limit is a safety net, generous: fake time does not
// depend on the machine's load, so a right answer never meets it.
func Watched(t *testing.T, limit time.Duration, stuck func() []string, deadlock func(error) string, f func(t *testing.T)) string {
	t.Helper()
	name := t.Name()
	dog := time.AfterFunc(limit, func() {
		said := append([]string{messages.T("bubble.timed_out", name, limit)}, stuck()...)
		Abort(name, append(said, Goroutines()...)...)
	})
	defer dog.Stop()
	return Test(t, f, deadlock)
}

// Within is Test that gives up when the bubble is stuck on a lock, or
// after limit of real time, and returns stuck instead: the bubble is left behind and the process goes on, for a check
// that replays many schedules and shrinks the one that hangs.
func Within(t *testing.T, limit time.Duration, stuck string, deadlock func(error) string, f func(t *testing.T)) string {
	t.Helper()
	done := make(chan string, 1)
	go func() {
		said := ""
		defer func() { done <- said }()
		said = Test(t, f, deadlock)
	}()
	// A bubble stuck on a lock is seen at once (Locked); the limit is
	// only for one whose goroutine never waits.
	deadline := time.Now().Add(limit)
	for tick := time.NewTicker(time.Millisecond); ; {
		select {
		case said := <-done:
			tick.Stop()
			return said
		case <-tick.C:
			if Locked() || time.Now().After(deadline) {
				tick.Stop()
				return stuck
			}
		}
	}
}

// Abort fails the test named name from outside it, in go test's format,
// and ends the process: a goroutine stuck on a lock cannot be moved, the
// bubble never ends.
func Abort(name string, lines ...string) {
	fmt.Printf("--- FAIL: %s\n", name)
	for _, l := range lines {
		for _, s := range strings.Split(l, "\n") {
			fmt.Printf("    %s\n", s)
		}
	}
	fmt.Println("FAIL")
	os.Exit(1)
}
