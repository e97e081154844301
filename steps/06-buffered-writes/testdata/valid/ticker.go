// ticker: a time.Ticker flushes every interval whatever the batch holds (a batch waits at most one interval, often less): still bounded, still one write per batch
// vi: một time.Ticker flush mỗi chu kỳ dù lô đang có gì (một lô chờ nhiều nhất một chu kỳ, thường ít hơn): vẫn có giới hạn, vẫn mỗi lô một lượt ghi

//go:build !solution

package main

import (
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/given/writes"
)

// run batches documents by size, and a ticker flushes partial batches.
func (b *Batcher) run() {
	defer close(b.done)
	tick := time.NewTicker(b.interval)
	defer tick.Stop()
	batch := make([]bson.D, 0, b.size)
	for {
		select {
		case doc, ok := <-b.queue:
			if !ok {
				b.flush(batch)
				return
			}
			if batch = append(batch, doc); len(batch) == b.size {
				b.flush(batch)
				batch = batch[:0]
			}
		case <-tick.C:
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
