// drain_before_reset: the pre-Go-1.23 timer idiom: Stop, drain a tick that already fired, then Reset — needless since Go 1.23, still right
// vi: cách dùng timer kiểu trước Go 1.23: Stop, rút cái tick đã bắn ra khỏi channel, rồi Reset — không cần nữa kể từ Go 1.23, nhưng vẫn đúng

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
	for {
		select {
		case doc, ok := <-b.queue:
			if !ok {
				b.flush(batch)
				return
			}
			if len(batch) == 0 {
				if !timer.Stop() {
					select {
					case <-timer.C: // a tick from the last batch, not yet read
					default:
					}
				}
				timer.Reset(b.interval)
			}
			batch = append(batch, doc)
			if len(batch) >= b.size {
				if !timer.Stop() {
					select {
					case <-timer.C:
					default:
					}
				}
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
