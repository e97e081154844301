// nil_channel_timer: a new time.Timer per batch and a nil channel while the batch is empty (a nil channel blocks forever in a select): the same behaviour as the reference, another idiom
// vi: mỗi lô một time.Timer mới và một channel nil khi lô đang rỗng (channel nil chặn mãi trong select): cùng hành vi với lời giải mẫu, cách viết khác

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
	var batch []bson.D
	var timer *time.Timer
	var expired <-chan time.Time // nil while no batch is open
	write := func() {
		if timer != nil {
			timer.Stop()
		}
		b.flush(batch)
		batch, expired = nil, nil
	}
	for {
		select {
		case doc, ok := <-b.queue:
			if !ok {
				write()
				return
			}
			if batch == nil {
				timer = time.NewTimer(b.interval)
				expired = timer.C
			}
			if batch = append(batch, doc); len(batch) >= b.size {
				write()
			}
		case <-expired:
			write()
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
