// WRONG: flush calls b.write once with a budget instead of writes.Persist: a failed or partly failed write is logged and dropped, not retried

//go:build !solution

package main

import (
	"context"
	"log"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/given/writes"
)

func (b *Batcher) run() {
	defer close(b.done)
	batch := make([]bson.D, 0, b.size)
	timer := time.NewTimer(b.interval)
	timer.Stop()
	for {
		select {
		case doc, ok := <-b.queue:
			if !ok {
				b.flush(batch)
				return
			}
			batch = append(batch, doc)
			if len(batch) == 1 {
				timer.Reset(b.interval)
			}
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

// flush writes a batch in one round trip, with the attempt's budget.
func (b *Batcher) flush(batch []bson.D) {
	if len(batch) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), writes.AttemptTimeout)
	defer cancel()
	if retry, err := b.write(ctx, batch); err != nil {
		log.Printf("bulk: %d of %d events not written: %v", len(retry), len(batch), err)
	}
}
