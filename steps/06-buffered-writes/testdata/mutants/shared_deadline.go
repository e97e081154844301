// shared_deadline: flush rewritten by hand with one deadline for the whole batch, shared by every retry: a database down for longer than that fails every attempt after it, even once it is back, and the batch is never written
// vi: flush viết lại bằng tay với một deadline cho cả lô, mọi lần thử lại dùng chung: database sập lâu hơn deadline đó thì mọi lần thử sau đều fail, kể cả khi database đã quay lại, và lô không bao giờ được ghi

//go:build !solution

package main

import (
	"context"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

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

func (b *Batcher) flush(batch []bson.D) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	backoff := 50 * time.Millisecond
	for len(batch) > 0 {
		retry, err := b.write(ctx, batch)
		if err == nil || len(retry) == 0 {
			return
		}
		batch = retry
		time.Sleep(backoff)
		backoff = min(2*backoff, 2*time.Second)
	}
}
