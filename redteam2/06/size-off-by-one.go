// WRONG: flushes when len(batch) > b.size: every full batch holds size+1 documents, one more than the write may hold

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
	timer := time.NewTimer(b.interval)
	timer.Stop()
	for {
		select {
		case doc, ok := <-b.queue:
			if !ok {
				b.flush(batch)
				return
			}
			batch = append(batch, doc)
			if len(batch) == 1 {
				timer.Reset(b.interval)
			}
			if len(batch) > b.size {
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
