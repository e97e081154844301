// WRONG: opportunistic batching — wait for one document, take whatever else is queued right now, flush: a trickle is written one event per round trip, many partial writes per interval

//go:build !solution

package main

import (
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/given/writes"
)

func (b *Batcher) run() {
	defer close(b.done)
	batch := make([]bson.D, 0, b.size)
	for doc := range b.queue {
		batch = append(batch, doc)
	more:
		for len(batch) < b.size {
			select {
			case d, ok := <-b.queue:
				if !ok {
					break more
				}
				batch = append(batch, d)
			default:
				break more
			}
		}
		b.flush(batch)
		batch = batch[:0]
	}
}

var _ = time.Second

// flush writes a batch until all of it is persisted, retrying with
// backoff (given: an accepted event is never dropped).
func (b *Batcher) flush(batch []bson.D) {
	if len(batch) > 0 {
		writes.Persist(b.write, batch)
	}
}
