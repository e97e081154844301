package main

import (
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/given/writes"
)

// Given: the batcher's state and New, under both builds (SOLUTION=1 runs
// this same code). The bounded buffer in front of it — Add, AddWait and
// Close, the errors the HTTP shell turns into 503 + Retry-After — is
// writes.Buffer, shared with the group variant and step 7. Your work is
// run (and, if you must, flush) in exercise.go.

// Batcher buffers documents and writes them in batches.
type Batcher struct {
	*writes.Buffer                  // Add, AddWait, Close
	size           int              // flush when a batch holds this many
	interval       time.Duration    // or when this long has passed since its first document
	write          writes.WriteFunc // one round trip per batch
	queue          <-chan bson.D    // the buffer's side run takes documents from; Close closes it
	done           chan<- struct{}  // run closes it once everything is written: Close waits for it
}

// New starts a batcher: flush at size documents or after interval,
// holding at most capacity documents in its queue, plus the one batch run
// has taken out and is writing.
func New(size, capacity int, interval time.Duration, write writes.WriteFunc) *Batcher {
	buf := writes.NewBuffer("bulk", capacity)
	b := &Batcher{Buffer: buf, size: size, interval: interval, write: write,
		queue: buf.Queue(), done: buf.Done()}
	go b.run()
	return b
}
