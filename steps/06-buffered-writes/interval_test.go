package main

import (
	"testing"
	"testing/synctest"
	"time"
)

// One event alone is written within the flush interval, not when the
// batch is full — and under a steady trickle too: the interval counts
// from the first event of a batch, so a trickle cannot postpone it. The
// clock is testing/synctest's: the trickle's 20 ms are exact however busy
// the machine is, so the check cannot pass by luck of the scheduler.
func TestPartialBatchesAreFlushedByTheInterval(t *testing.T) {
	t.Run("an event alone", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			r := newRecorder()
			b := New(1000, 100, 50*time.Millisecond, r.write)
			defer b.Close(t.Context())
			_ = b.Add(doc(1))
			time.Sleep(60 * time.Millisecond)
			synctest.Wait()
			if n, _ := r.written(); n != 1 {
				t.Fatal("a lone event was not written 60 ms after it was added with a 50 ms flush interval: " +
					"start a timer when the first document of a batch arrives, and flush when it fires")
			}
		})
	})
	t.Run("a trickle", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			r := newRecorder()
			b := New(1000, 100, 100*time.Millisecond, r.write)
			defer b.Close(t.Context())
			for i := range 50 { // one event every 20 ms, for 1 s
				_ = b.Add(doc(i))
				time.Sleep(20 * time.Millisecond)
			}
			synctest.Wait()
			if n, _ := r.written(); n < 40 {
				t.Fatalf("one event every 20 ms for 1 s with a 100 ms flush interval: %d of 50 written before the trickle stopped, want all but the last interval's. "+
					"The interval must count from the FIRST event of a batch (Reset the timer only when a batch starts; "+
					"a time.After in the select, or a Reset per event, restarts the wait at every event)", n)
			}
		})
	})
}
