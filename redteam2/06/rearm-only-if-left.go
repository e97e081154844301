// WRONG: the timer is armed once at start and re-armed after a timer flush only if documents are left: after the first quiet interval the timer is never armed again

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
		case <-timer.C:
			b.flush(batch)
			batch = batch[:0]
			if len(b.queue) > 0 {
				timer.Reset(b.interval)
			}
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
