// go_flush: writes each batch in its own goroutine (go b.flush): run never waits for the database, so a stuck database piles up batches in memory past Capacity
// vi: ghi mỗi lô trong một goroutine riêng (go b.flush): run không bao giờ chờ database, nên database kẹt là các lô chất đống trong bộ nhớ, vượt quá Capacity

//go:build !solution

package main

import (
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/given/writes"
)

// run batches documents and writes each batch in the background.
func (b *Batcher) run() {
	defer close(b.done)
	var wg sync.WaitGroup
	defer wg.Wait()
	batch := make([]bson.D, 0, b.size)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	send := func() {
		full := batch
		batch = make([]bson.D, 0, b.size)
		wg.Add(1)
		go func() { defer wg.Done(); b.flush(full) }()
	}
	for {
		select {
		case doc, ok := <-b.queue:
			if !ok {
				send()
				return
			}
			if len(batch) == 0 {
				timer.Reset(b.interval)
			}
			batch = append(batch, doc)
			if len(batch) >= b.size {
				timer.Stop()
				send()
			}
		case <-timer.C:
			send()
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
