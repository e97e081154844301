// valid: a fresh slice per batch (no reuse) and a deadline channel set to nil between batches

//go:build !solution

package main

import (
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/given/writes"
)

func (b *Batcher) run() {
	defer close(b.done)
	var batch []bson.D
	var due <-chan time.Time // nil: no batch open, never fires
	for {
		select {
		case doc, ok := <-b.queue:
			if !ok {
				b.flush(batch)
				return
			}
			if batch == nil {
				batch = make([]bson.D, 0, b.size)
				due = time.After(b.interval)
			}
			batch = append(batch, doc)
			if len(batch) == b.size {
				b.flush(batch)
				batch, due = nil, nil
			}
		case <-due:
			b.flush(batch)
			batch, due = nil, nil
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
