// deadline_after: a deadline set at the first event of the batch and a time.After(time.Until(deadline)) in each select: a new timer per loop, but every one ends at the same instant, so the interval still counts from the first event
// vi: một deadline đặt ở event đầu tiên của lô và một time.After(time.Until(deadline)) trong mỗi select: mỗi vòng một timer mới, nhưng timer nào cũng kết thúc cùng một thời điểm, nên chu kỳ vẫn tính từ event đầu tiên

//go:build !solution

package main

import (
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/given/writes"
)

// run batches documents by size and by a deadline from the first event.
func (b *Batcher) run() {
	defer close(b.done)
	var batch []bson.D
	var deadline time.Time
	for {
		var expired <-chan time.Time // nil while the batch is empty: no deadline
		if len(batch) > 0 {
			expired = time.After(time.Until(deadline))
		}
		select {
		case doc, ok := <-b.queue:
			if !ok {
				b.flush(batch)
				return
			}
			if len(batch) == 0 {
				deadline = time.Now().Add(b.interval)
			}
			if batch = append(batch, doc); len(batch) >= b.size {
				b.flush(batch)
				batch = nil
			}
		case <-expired:
			b.flush(batch)
			batch = nil
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
