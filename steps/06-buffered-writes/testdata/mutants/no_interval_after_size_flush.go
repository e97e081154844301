// no_interval_after_size_flush: remembers that the timer is armed and forgets to clear that after a size flush: once a batch has been flushed by size, no later batch is flushed by the interval
// vi: có cờ nhớ rằng timer đã bật nhưng quên xoá cờ sau một lần flush theo kích thước: một khi đã có lô flush theo kích thước, không lô nào sau đó được flush theo chu kỳ nữa

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
	armed := false
	for {
		select {
		case doc, ok := <-b.queue:
			if !ok {
				b.flush(batch)
				return
			}
			if !armed {
				timer.Reset(b.interval)
				armed = true
			}
			batch = append(batch, doc)
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
