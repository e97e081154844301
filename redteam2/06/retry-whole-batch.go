// WRONG: its own retry loop resends the whole batch after any error instead of what the write says to retry: a partial failure writes the good documents twice

//go:build !solution

package main

import (
	"context"
	"errors"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/given/events"
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

// flush writes a batch until all of it is persisted, retrying with
// backoff (given: an accepted event is never dropped).
func (b *Batcher) flush(batch []bson.D) {
	if len(batch) == 0 {
		return
	}
	backoff := 50 * time.Millisecond
	for {
		ctx, cancel := context.WithTimeout(context.Background(), writes.AttemptTimeout)
		_, err := b.write(ctx, batch)
		cancel()
		if err == nil {
			return
		}
		var refused events.Refused
		if errors.As(err, &refused) {
			return // refused for good: retrying cannot help
		}
		time.Sleep(backoff)
		backoff = min(2*backoff, writes.MaxBackoff)
	}
}
