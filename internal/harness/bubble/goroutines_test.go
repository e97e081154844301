package bubble

import (
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/peakload/workshop/internal/given/messages"
)

// A watchdog's report names what each goroutine of the step's code waits
// on — a mutex, a channel, nothing (spinning) — with its stack trimmed to
// the step's files (here, this package's), in the reader's language.
func TestGoroutinesSayWhatTheyWaitOn(t *testing.T) {
	var mu sync.Mutex
	mu.Lock()
	ch := make(chan int)
	var stop atomic.Bool
	go func() { mu.Lock(); mu.Unlock() }()
	go func() { <-ch }()
	go func() {
		for !stop.Load() {
		}
	}()
	defer func() { mu.Unlock(); close(ch); stop.Store(true) }()
	// The goroutines reach their waits on their own; the report is read
	// until it shows all three (a watchdog, not a verdict).
	for start := time.Now(); ; time.Sleep(time.Millisecond) {
		said := strings.Join(Goroutines(), "\n")
		spinning := strings.Contains(said, "[running]") || strings.Contains(said, "[runnable]")
		if spinning && strings.Contains(said, "[sync.Mutex.Lock]") && strings.Contains(said, "[chan receive]") {
			break
		}
		if time.Since(start) > time.Minute {
			t.Fatalf("timed out (the machine may be overloaded): the goroutines never reached their waits:\n%s", said)
		}
	}
	for _, lang := range []messages.Lang{messages.English, messages.Vietnamese} {
		restore := messages.Use(lang)
		said := strings.Join(Goroutines(), "\n")
		restore()
		for _, want := range []string{"on_mutex", "on_channel", "running"} {
			if w := lang.T("bubble." + want); !strings.Contains(said, w) {
				t.Errorf("%s: the report does not say %q:\n%s", lang, w, said)
			}
		}
		if !strings.Contains(said, "goroutines_test.go:") || strings.Contains(said, "runtime/") {
			t.Errorf("%s: the stacks are not trimmed to this package's files:\n%s", lang, said)
		}
	}
}

// Inside a synctest bubble only the bubble's goroutines are reported, and
// without the bubble's root.
func TestInBubbleKeepsTheBubblesGoroutines(t *testing.T) {
	gs := []goroutine{
		{state: "chan receive", frames: []string{"x_test.go:1 TestMain"}},
		{state: "synctest.Run (durable), synctest bubble 4", frames: []string{"x_test.go:2 inBubble"}},
		{state: "sync.Mutex.Lock, synctest bubble 4", frames: []string{"exercise.go:26 run.func1"}},
	}
	got := inBubble(gs)
	if len(got) != 1 || got[0].state != "sync.Mutex.Lock" {
		t.Errorf("inBubble = %v, want the one goroutine on the mutex", got)
	}
}
