// timer_only_unbounded: a goroutine drains b.queue into a slice that grows without bound and a ticker flushes it: no size flush, and Capacity means nothing (Add never answers ErrFull)
// vi: một goroutine rút b.queue vào một slice lớn không giới hạn và một ticker flush nó: không flush theo kích thước, và Capacity chẳng có nghĩa gì (Add không bao giờ trả ErrFull)

//go:build !solution

package main

import (
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/given/writes"
)

// run drains the queue into a slice; a ticker writes it.
func (b *Batcher) run() {
	defer close(b.done)
	var mu sync.Mutex
	var pending []bson.D
	drained := make(chan struct{})
	go func() {
		for doc := range b.queue {
			mu.Lock()
			pending = append(pending, doc)
			mu.Unlock()
		}
		close(drained)
	}()
	tick := time.NewTicker(b.interval)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
		case <-drained:
			mu.Lock()
			b.flush(pending)
			mu.Unlock()
			return
		}
		mu.Lock()
		batch := pending
		pending = nil
		mu.Unlock()
		b.flush(batch)
	}
}

// flush writes a batch until all of it is persisted, retrying with
// backoff (given: an accepted event is never dropped).
func (b *Batcher) flush(batch []bson.D) {
	if len(batch) > 0 {
		writes.Persist(b.write, batch)
	}
}
