// lock_held_across_write: a timer callback flushes under a mutex that run also takes for every event: while a write is stuck, run waits on the lock, nothing is accepted and no clock moves
// vi: callback của timer flush trong lúc giữ một mutex mà run cũng lấy ở mỗi event: một lượt ghi bị kẹt là run đứng chờ lock, không nhận thêm event nào và đồng hồ flush cũng đứng luôn

//go:build !solution

package main

import (
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/given/writes"
)

// run batches documents under a lock; a timer callback flushes partial
// batches under the same lock, holding it for the whole write.
func (b *Batcher) run() {
	defer close(b.done)
	var mu sync.Mutex
	batch := make([]bson.D, 0, b.size)
	for doc := range b.queue {
		mu.Lock()
		if len(batch) == 0 {
			time.AfterFunc(b.interval, func() {
				mu.Lock()
				defer mu.Unlock()
				b.flush(batch)
				batch = batch[:0]
			})
		}
		batch = append(batch, doc)
		if len(batch) >= b.size {
			b.flush(batch)
			batch = batch[:0]
		}
		mu.Unlock()
	}
	mu.Lock()
	b.flush(batch)
	mu.Unlock()
}

// flush writes a batch until all of it is persisted, retrying with
// backoff (given: an accepted event is never dropped).
func (b *Batcher) flush(batch []bson.D) {
	if len(batch) > 0 {
		writes.Persist(b.write, batch)
	}
}
