// WRONG: four goroutines each run the batching loop on the shared queue, for throughput: four partial batches per interval, four writes in flight at once, and a trickle spread over four batches

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
	for range 4 {
		wg.Add(1)
		go func() { defer wg.Done(); b.loop() }()
	}
	wg.Wait()
}

// loop is one flusher.
func (b *Batcher) loop() {
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
			if len(batch) >= b.size {
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
