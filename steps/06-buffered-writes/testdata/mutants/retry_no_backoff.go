// retry_no_backoff: flush rewritten by hand: writes again at once while write returns documents to retry, with no pause: a database that is down is hammered in a tight loop
// vi: flush viết lại bằng tay: ghi lại ngay chừng nào write còn trả các document cần thử lại, không nghỉ: database đang sập bị dội liên tục trong một vòng lặp chặt

//go:build !solution

package main

import (
	"context"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/given/writes"
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
	for len(batch) > 0 {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		retry, err := b.write(ctx, batch)
		cancel()
		if err == nil || len(retry) == 0 {
			return
		}
		batch = retry
	}
}

var _ = writes.Persist
