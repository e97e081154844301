// no_attempt_deadline: flush rewritten by hand with no deadline on an attempt: an attempt stuck on a database that went away waits for ever, and the batch is never written once it is back
// vi: flush viết lại bằng tay, không có deadline cho mỗi lần thử: một lần thử kẹt lại khi database sập sẽ chờ mãi, và khi database quay lại thì lô vẫn không bao giờ được ghi

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
	ctx := context.Background()
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
