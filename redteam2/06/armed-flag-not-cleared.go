// WRONG: an "armed" flag guards the Reset, and the size flush Stops the timer without clearing the flag: the batch after a size flush is never written by the interval

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
	armed := false
	for {
		select {
		case doc, ok := <-b.queue:
			if !ok {
				b.flush(batch)
				return
			}
			batch = append(batch, doc)
			if !armed {
				timer.Reset(b.interval)
				armed = true
			}
			if len(batch) >= b.size {
				timer.Stop()
				b.flush(batch)
				batch = batch[:0]
			}
		case <-timer.C:
			armed = false
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
