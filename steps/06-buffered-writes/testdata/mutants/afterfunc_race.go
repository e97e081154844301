// afterfunc_race: flushes from a time.AfterFunc callback: the timer's goroutine and run share the batch without a lock, losing or repeating events
// vi: flush từ callback của time.AfterFunc: goroutine của timer và run dùng chung lô mà không có lock, làm mất hoặc lặp event

//go:build !solution

package main

import (
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/given/writes"
)

// run batches documents; a timer callback flushes partial batches.
func (b *Batcher) run() {
	defer close(b.done)
	batch := make([]bson.D, 0, b.size)
	var timer *time.Timer
	for doc := range b.queue {
		if len(batch) == 0 {
			timer = time.AfterFunc(b.interval, func() {
				b.flush(batch)
				batch = batch[:0]
			})
		}
		batch = append(batch, doc)
		if len(batch) >= b.size {
			timer.Stop()
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
