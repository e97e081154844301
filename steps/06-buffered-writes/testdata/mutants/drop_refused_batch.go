// drop_refused_batch: flush gives up the batch when the error names a refusal for good: the documents beside the poison one that failed for a passing reason (half a batch lost to a connection reset) are dropped
// vi: flush bỏ cả lô khi lỗi báo một lần từ chối vĩnh viễn: các document nằm cạnh document độc đã fail vì một lý do nhất thời (nửa lô mất vì connection bị reset) bị bỏ luôn

//go:build !solution

package main

import (
	"context"
	"errors"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/given/events"
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

// flush writes a batch until all of it is persisted, but gives up on a
// batch the database refused part of.
func (b *Batcher) flush(batch []bson.D) {
	for backoff := 50 * time.Millisecond; len(batch) > 0; backoff = min(2*backoff, 2*time.Second) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		retry, err := b.write(ctx, batch)
		cancel()
		var refused events.Refused
		if err == nil || errors.As(err, &refused) {
			return
		}
		batch = retry
		time.Sleep(backoff)
	}
}
