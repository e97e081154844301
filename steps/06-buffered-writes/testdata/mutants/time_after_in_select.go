// time_after_in_select: uses case <-time.After(b.interval) in the select: a new timer at every event, so a steady trickle postpones the flush forever
// vi: dùng case <-time.After(b.interval) trong select: event nào cũng tạo một timer mới, nên event cứ tới đều đều là lượt flush bị lùi mãi

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
	for {
		select {
		case doc, ok := <-b.queue:
			if !ok {
				b.flush(batch)
				return
			}
			batch = append(batch, doc)
			if len(batch) >= b.size {
				b.flush(batch)
				batch = batch[:0]
			}
		case <-time.After(b.interval):
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
