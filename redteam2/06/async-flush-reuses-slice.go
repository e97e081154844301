// WRONG: flushes in a goroutine so intake never waits, then reuses the slice (batch[:0]): the next batch's appends overwrite documents the flush is still writing or retrying

//go:build !solution

package main

import (
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/given/writes"
)

func (b *Batcher) run() {
	defer close(b.done)
	var wg sync.WaitGroup
	batch := make([]bson.D, 0, b.size)
	timer := time.NewTimer(b.interval)
	timer.Stop()
	for {
		select {
		case doc, ok := <-b.queue:
			if !ok {
				b.flush(batch)
				wg.Wait()
				return
			}
			batch = append(batch, doc)
			if len(batch) == 1 {
				timer.Reset(b.interval)
			}
			if len(batch) >= b.size {
				timer.Stop()
				wg.Add(1)
				go func(batch []bson.D) { defer wg.Done(); b.flush(batch) }(batch)
				batch = batch[:0]
			}
		case <-timer.C:
			wg.Add(1)
			go func(batch []bson.D) { defer wg.Done(); b.flush(batch) }(batch)
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
