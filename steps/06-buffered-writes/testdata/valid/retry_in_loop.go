// retry_in_loop: run writes with b.write itself and keeps what a write returned to retry in the batch, taking new events beside it up to the batch size, and tries again after a pause that doubles: new events join the retried write, and none already written is sent again
// vi: run tự gọi b.write và giữ trong lô những gì một lần ghi trả về để retry, nhận thêm event mới bên cạnh cho tới đủ kích thước lô, rồi thử lại sau một quãng nghỉ tăng gấp đôi: event mới đi cùng lần ghi lại, và không cái nào đã ghi được gửi lại

//go:build !solution

package main

import (
	"context"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/given/writes"
)

// run batches documents by size and by the interval, and retries a failed
// write's leftovers itself, with new events beside them.
func (b *Batcher) run() {
	defer close(b.done)
	var batch []bson.D
	var due <-chan time.Time // the batch's interval, or the pause before a retry
	backoff := 50 * time.Millisecond
	for {
		in := b.queue
		if len(batch) >= b.size {
			in = nil // full: take nothing more until it is written
		}
		select {
		case doc, ok := <-in:
			if !ok {
				b.flush(batch) // closing: the given retries, until written
				return
			}
			if len(batch) == 0 {
				due = time.After(b.interval)
			}
			batch = append(batch, doc)
			if len(batch) < b.size {
				continue
			}
		case <-due:
		}
		if len(batch) == 0 {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), writes.AttemptTimeout)
		retry, err := b.write(ctx, batch)
		cancel()
		if err == nil || len(retry) == 0 {
			batch, due, backoff = nil, nil, 50*time.Millisecond
			continue
		}
		batch, due = retry, time.After(backoff) // keep the failed ones, try again after a pause
		backoff = min(2*backoff, writes.MaxBackoff)
	}
}

// flush writes a batch until all of it is persisted, retrying with
// backoff (given: an accepted event is never dropped).
func (b *Batcher) flush(batch []bson.D) {
	if len(batch) > 0 {
		writes.Persist(b.write, batch)
	}
}
