// retry_any_error: flush writes the whole batch again while write returns an error: a document refused for good (a poison message) is retried for ever, the good events beside it are written again and again, and Close never returns
// vi: flush ghi lại cả lô chừng nào write còn trả lỗi: một document bị từ chối vĩnh viễn (một poison message) được thử lại mãi mãi, các event tốt bên cạnh nó bị ghi đi ghi lại, và Close không bao giờ trả về

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

// flush writes the batch until write returns no error.
func (b *Batcher) flush(batch []bson.D) {
	for backoff := 50 * time.Millisecond; len(batch) > 0; backoff = min(2*backoff, 2*time.Second) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		_, err := b.write(ctx, batch)
		cancel()
		if err == nil {
			return
		}
		time.Sleep(backoff)
	}
}
