// size_only: flushes on size and on close, never on time: under light traffic an event waits for 999 others
// vi: flush theo kích thước và khi close, không bao giờ theo thời gian: lúc traffic nhẹ, một event phải chờ 999 event khác

//go:build !solution

package main

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/given/writes"
)

// run batches documents by size.
func (b *Batcher) run() {
	defer close(b.done)
	batch := make([]bson.D, 0, b.size)
	for doc := range b.queue {
		batch = append(batch, doc)
		if len(batch) >= b.size {
			b.flush(batch)
			batch = batch[:0]
		}
	}
	b.flush(batch)
}

// flush writes a batch until all of it is persisted, retrying with
// backoff (given: an accepted event is never dropped).
func (b *Batcher) flush(batch []bson.D) {
	if len(batch) > 0 {
		writes.Persist(b.write, batch)
	}
}
