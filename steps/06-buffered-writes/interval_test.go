package main

import (
	"testing"
	"testing/synctest"
	"time"
)

// The clock of these checks is testing/synctest's: a quiet minute costs
// nothing, and "within the interval" is exact however busy the machine
// is, so a check cannot pass by luck of the scheduler.

// A lone event is written within the flush interval, not when the batch is
// full — right after New, and again after a quiet minute, every time: the
// timer serves every batch, not only the first.
func TestALoneEventIsWrittenWithinTheInterval(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		const interval = 100 * time.Millisecond
		r := newRecorder()
		b := batcherFor(t, r, 1000, 100, interval)
		for n, quiet := range []time.Duration{0, time.Minute, time.Minute, 3 * time.Second} {
			time.Sleep(quiet)
			addAll(t, b, n, n+1)
			time.Sleep(interval)
			synctest.Wait()
			if got := r.timesWritten()[n]; got != 1 {
				if n == 0 {
					t.Fatalf("a lone event added right after New was written %d times within the %s flush interval, want once: "+
						"start a timer when the first document of a batch arrives, and flush when it fires", got, interval)
				}
				t.Fatalf("lone event %d, added after %s of quiet, was written %d times within the %s flush interval, want once "+
					"(the %d lone events before it were written in time): the timer must start again for every batch's first event",
					n, quiet, got, interval, n)
			}
		}
		checkOddities(t, r)
	})
}

// Under a steady trickle the interval still flushes: it counts from the
// first event of a batch, so a trickle cannot postpone it.
func TestATrickleIsWrittenByTheInterval(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		r := newRecorder()
		b := batcherFor(t, r, 1000, 100, 100*time.Millisecond)
		for i := range 50 { // one event every 20 ms, for 1 s
			addAll(t, b, i, i+1)
			time.Sleep(20 * time.Millisecond)
		}
		synctest.Wait()
		if n := r.written(); n < 40 {
			t.Fatalf("one event every 20 ms for 1 s with a 100 ms flush interval: %d of 50 written before the trickle stopped, want all but the last interval's. "+
				"The interval must count from the FIRST event of a batch (Reset the timer only when a batch starts; "+
				"a time.After in the select, or a Reset per event, restarts the wait at every event)", n)
		}
		checkOddities(t, r)
	})
}

// After a size flush the next batch — a rest left over, or a lone event
// later — is still written by the interval, round after round.
func TestTheBatchAfterASizeFlushIsWrittenByTheInterval(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		const interval = 100 * time.Millisecond
		r := newRecorder()
		b := batcherFor(t, r, 10, 100, interval)
		n := 0
		for round := 1; round <= 3; round++ {
			// allWithinTheInterval: what came before the interval (said as
			// what) is all written once it has passed.
			allWithinTheInterval := func(what string) {
				time.Sleep(interval)
				synctest.Wait()
				if w := r.written(); w != n {
					t.Fatalf("round %d: %s not written within the %s interval (%d of %d written): "+
						"after a size flush the next batch's first event must start the timer again", round, what, interval, w, n)
				}
			}
			addAll(t, b, n, n+13) // a full batch and a rest of 3
			n += 13
			synctest.Wait()
			if w := r.written(); w != n-3 {
				t.Fatalf("round %d: 13 events at once (batch size 10): %d of %d written at once, want %d (a size flush)", round, w, n, n-3)
			}
			allWithinTheInterval("13 events at once (batch size 10) were written as a full batch, but the 3 left over were")
			addAll(t, b, n, n+10) // exactly a full batch: flushed by size, its timer stopped
			n += 10
			time.Sleep(interval / 2)
			addAll(t, b, n, n+1) // then a lone event
			n++
			allWithinTheInterval("a full batch of 10 was written by size, then a lone event 50 ms later was")
			time.Sleep(time.Minute)
		}
		checkOddities(t, r)
	})
}
