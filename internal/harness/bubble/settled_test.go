package bubble

import (
	"sync"
	"testing"
	"time"
)

// A bubble whose goroutine waits on a lock held by one waiting on a
// channel can never move: Locked sees it from the stacks, at once.
func TestLockedSeesABubbleStuckOnAMutex(t *testing.T) {
	if Locked() {
		t.Fatal("Locked with no bubble running")
	}
	said := Within(t, time.Minute, "stuck", nil, func(t *testing.T) {
		release := make(chan struct{}) // the bubble's own: a durable wait
		var mu sync.Mutex
		mu.Lock()
		go func() { mu.Lock(); mu.Unlock() }() // never gets it…
		go func() { <-release }()              // …nor does anything else move
		time.Sleep(time.Hour)
		mu.Unlock()
		close(release)
	})
	if said != "stuck" {
		t.Fatalf("Within returned %q for a bubble stuck on a lock, want stuck", said)
	}
}

// Goroutines that only wait on channels and timers are not stuck: synctest
// moves their clock, and Within returns what the bubble said.
func TestWithinLetsAWaitingBubbleEnd(t *testing.T) {
	said := Within(t, time.Minute, "stuck", nil, func(t *testing.T) {
		done := make(chan struct{})
		go func() { time.Sleep(time.Hour); close(done) }()
		<-done
	})
	if said != "" {
		t.Fatalf("Within returned %q for a bubble that ends, want nothing", said)
	}
}

// Settled is false while a goroutine runs and true once it waits.
func TestSettledSeesARunningGoroutine(t *testing.T) {
	start, stop := make(chan struct{}), make(chan struct{})
	var spinning sync.WaitGroup
	spinning.Go(func() {
		close(start)
		for {
			select {
			case <-stop:
				return
			default:
			}
		}
	})
	<-start
	if Settled("") {
		t.Error("Settled while a goroutine spins")
	}
	close(stop)
	spinning.Wait()
	if Until(t, time.Minute, "nothing", func() bool { return false }) {
		t.Error("Until returned true for a condition that never holds")
	}
}

// A goroutine asleep keeps Settled false (its sleep ends on its own) but
// not Idle, for which it waits like one on a channel.
func TestIdleCountsASleepingGoroutineAsWaiting(t *testing.T) {
	wake := make(chan struct{})
	var sleeper sync.WaitGroup
	sleeper.Go(func() {
		for {
			select {
			case <-wake:
				return
			default:
				time.Sleep(50 * time.Millisecond)
			}
		}
	})
	if UntilIdle(t, time.Minute, "nothing", func() bool { return false }) {
		t.Error("UntilIdle returned true for a condition that never holds")
	}
	if Settled("") { // asleep or between two sleeps: either may change something
		t.Error("Settled with a goroutine that sleeps: a sleep ends on its own")
	}
	close(wake)
	sleeper.Wait()
}
