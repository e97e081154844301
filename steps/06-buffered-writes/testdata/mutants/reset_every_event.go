// reset_every_event: Resets the timer at every event instead of at the first of a batch: the interval counts from the last event, so a trickle is never flushed
// vi: Reset timer ở mỗi event thay vì ở event đầu tiên của lô: chu kỳ tính từ event cuối, nên event cứ lai rai tới là lô không bao giờ được flush

//go:build !solution

package main

import (
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/given/writes"
)

// run batches documents by size and interval.
func (b *Batcher) run() {
	defer close(b.done)
	batch := make([]bson.D, 0, b.size)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		select {
		case doc, ok := <-b.queue:
			if !ok {
				b.flush(batch)
				return
			}
			timer.Reset(b.interval) // "the batch waits at most interval" — from this event
			batch = append(batch, doc)
			if len(batch) >= b.size {
				timer.Stop()
				b.flush(batch)
				batch = batch[:0]
			}
		case <-timer.C:
			b.flush(batch)
			batch = batch[:0]
		}
	}
}

// flush writes a batch until all of it is persisted, retrying with
// backoff (given: an accepted event is never dropped).
func (b *Batcher) flush(batch []bson.D) {
	if len(batch) > 0 {
		writes.Persist(b.write, batch)
	}
}
