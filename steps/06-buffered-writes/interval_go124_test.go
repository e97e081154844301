//go:build !go1.25

package main

import (
	"testing"
	"time"
)

// Go 1.24 has no testing/synctest: the same check on the real clock
// (interval_test.go is the one Go ≥ 1.25 runs).

// One event alone is written within the flush interval, not when the
// batch is full — and under a steady trickle too: the interval counts
// from the first event of a batch, so a trickle cannot postpone it.
func TestPartialBatchesAreFlushedByTheInterval(t *testing.T) {
	t.Run("an event alone", func(t *testing.T) {
		r := newRecorder()
		b := New(1000, 100, 50*time.Millisecond, r.write)
		defer b.Close(t.Context())
		_ = b.Add(doc(1))
		if !waitFor(time.Second, func() bool { n, _ := r.written(); return n == 1 }) {
			t.Fatal("a lone event was not written within 1 s with a 50 ms flush interval: " +
				"start a timer when the first document of a batch arrives, and flush when it fires")
		}
	})
	t.Run("a trickle", func(t *testing.T) {
		r := newRecorder()
		b := New(1000, 100, 100*time.Millisecond, r.write)
		defer b.Close(t.Context())
		start := time.Now()
		for i := 0; time.Since(start) < time.Second; i++ { // one event every 20 ms, for 1 s
			_ = b.Add(doc(i))
			time.Sleep(20 * time.Millisecond)
		}
		if n, _ := r.written(); n == 0 {
			t.Fatal("one event every 20 ms for 1 s with a 100 ms flush interval: nothing written before the trickle stopped. " +
				"The interval must count from the FIRST event of a batch (Reset the timer only when a batch starts; " +
				"a time.After in the select, or a Reset per event, restarts the wait at every event)")
		}
	})
}
