//go:build !solution

package main

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/given/writes"
)

// run takes documents from b.queue and writes them with b.flush.
//
// TODO(step 6): batch them. Collect documents into a slice and flush it
//   - when it holds b.size documents, or
//   - when b.interval has passed since its first document (a time.Timer,
//     Reset when the first document of a batch arrives), and
//   - when b.queue is closed (Close): flush what is left, then return.
//
// Write a batch before you take more from b.queue (b.flush returns once it
// is written; no go b.flush): the queue holds at most Capacity, so at most
// Capacity + one batch wait in memory. A write left running while the next
// batch fills would let unwritten batches pile up without bound.
//
// One flush is one InsertMany: 1000 events cost one round trip, not 1000.
// Until then every event is its own batch — one round trip each, like
// insert_sync, only later.
func (b *Batcher) run() {
	defer close(b.done)
	for doc := range b.queue {
		b.flush([]bson.D{doc})
	}
}

// flush writes a batch until all of it is persisted, retrying with
// backoff (given: an accepted event is never dropped).
func (b *Batcher) flush(batch []bson.D) {
	if len(batch) > 0 {
		writes.Persist(b.write, batch)
	}
}
