// retry_wrong_ids: flush retries as many documents as write returned, but the first ones of the batch, not the ones write named: failed documents are lost and written ones sent again
// vi: flush thử lại đúng số document mà write trả về, nhưng là các document đầu lô, không phải những cái write đã chỉ ra: document fail bị mất và document đã ghi bị gửi lại

//go:build !solution

package main

import (
	"context"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
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
				timer.Reset(b.interval)
			}
			batch = append(batch, doc)
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

// flush writes a batch until write has nothing left to retry.
func (b *Batcher) flush(batch []bson.D) {
	for backoff := 50 * time.Millisecond; len(batch) > 0; backoff = min(2*backoff, 2*time.Second) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		retry, err := b.write(ctx, batch)
		cancel()
		if err == nil || len(retry) == 0 {
			return
		}
		batch = batch[:len(retry)] // as many as failed, but not the ones that did
		time.Sleep(backoff)
	}
}
