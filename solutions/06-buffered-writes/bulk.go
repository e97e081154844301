// Package bulk is the reference batcher of step 6 (claim B8, from the
// author's repository: bulk.js): accept an event into memory, answer at once, and write
// the buffer with one InsertMany when it holds Size events or Interval has
// passed since its first one. One round trip per batch instead of one per
// event. Article B's conclusion: "Đợi chờ 1 cách đúng đắn không làm chậm
// quá trình mà còn làm nó nhanh hơn" (waiting the right way does not slow the
// process down, it makes it faster).
package bulk

import (
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/given/metrics"
	"github.com/peakload/workshop/internal/given/writes"
)

// Run is the batching loop (step 6's run): it takes documents from queue
// into a batch, and flushes it when it holds size documents, when interval
// has passed since its first one, and when queue is closed (Close); then it
// closes done. One flush is one write: 1000 events, one round trip.
func Run(queue <-chan bson.D, done chan<- struct{}, size int, interval time.Duration, write writes.WriteFunc) {
	defer close(done)
	batch := make([]bson.D, 0, size)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		select {
		case doc, ok := <-queue:
			if !ok {
				flush(queue, write, batch) // closed: write what is left, then stop
				return
			}
			if len(batch) == 0 {
				timer.Reset(interval) // the interval counts from the batch's first event
			}
			batch = append(batch, doc)
			metrics.QueueDepth.Set(float64(len(queue) + len(batch)))
			if len(batch) >= size {
				timer.Stop()
				flush(queue, write, batch)
				batch = batch[:0]
			}
		case <-timer.C:
			flush(queue, write, batch)
			batch = batch[:0]
		}
	}
}

// flush writes a batch until all of it is persisted (writes.Persist): an
// accepted event is never dropped. While it retries, the queue fills and
// Add answers ErrFull.
func flush(queue <-chan bson.D, write writes.WriteFunc, batch []bson.D) {
	if len(batch) == 0 {
		return
	}
	start := time.Now()
	metrics.BatchSize.Observe(float64(len(batch)))
	writes.Persist(write, batch)
	metrics.FlushSeconds.Observe(time.Since(start).Seconds())
	metrics.QueueDepth.Set(float64(len(queue)))
}
