// write_per_document: flush writes the batch one document at a time: batched in memory, but one round trip per event, as insert_sync
// vi: flush ghi lô từng document một: gom lô trong bộ nhớ, nhưng mỗi event một round trip, như insert_sync

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
			if len(batch) == 0 {
				timer.Reset(b.interval)
			}
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

// flush writes a batch, each document until it is persisted.
func (b *Batcher) flush(batch []bson.D) {
	for _, doc := range batch {
		writes.Persist(b.write, []bson.D{doc})
	}
}
