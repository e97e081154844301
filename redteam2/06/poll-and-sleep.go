// WRONG: collects what the queue holds without waiting, then sleeps the interval when the batch is not full: a full batch waits out the sleep, and a Close waits for it

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
	for {
	collect:
		for len(batch) < b.size {
			select {
			case doc, ok := <-b.queue:
				if !ok {
					b.flush(batch)
					return
				}
				batch = append(batch, doc)
			default:
				break collect
			}
		}
		if len(batch) < b.size {
			time.Sleep(b.interval)
		}
		b.flush(batch)
		batch = batch[:0]
	}
}

// flush writes a batch until all of it is persisted, retrying with
// backoff (given: an accepted event is never dropped).
func (b *Batcher) flush(batch []bson.D) {
	if len(batch) > 0 {
		writes.Persist(b.write, batch)
	}
}
