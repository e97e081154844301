// Package bulk is the reference batcher of step 6 (claim B8, from the
// author's repository: bulk.js): accept an event into memory, answer at once, and write
// the buffer with one InsertMany when it holds Size events or Interval has
// passed since its first one. One round trip per batch instead of one per
// event: "waiting the right way makes the whole faster".
package bulk

import (
	"context"
	"fmt"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/metrics"
	"github.com/peakload/workshop/internal/writes"
)

// Batcher buffers documents and writes them in batches.
type Batcher struct {
	size     int
	interval time.Duration
	write    writes.WriteFunc
	queue    chan bson.D // bounded: memory never grows past capacity
	done     chan struct{}
	mu       sync.RWMutex // Add holds it shared; Close exclusive, to close queue safely
	closed   bool
}

// New starts a batcher: flush at size documents or after interval,
// holding at most capacity documents not yet written.
func New(size, capacity int, interval time.Duration, write writes.WriteFunc) *Batcher {
	b := &Batcher{size: size, interval: interval, write: write,
		queue: make(chan bson.D, capacity), done: make(chan struct{})}
	go b.run()
	return b
}

// Add accepts a document without waiting for the database. ErrFull is
// backpressure: the caller answers 503 with Retry-After instead of letting
// memory grow while the database is slow or down.
func (b *Batcher) Add(doc bson.D) error {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.closed {
		return writes.ErrClosed
	}
	select {
	case b.queue <- doc:
		return nil
	default:
		return writes.ErrFull
	}
}

// AddWait is Add that waits for room instead of refusing (insert_group:
// the article buffered everything; a bounded buffer makes the client wait).
func (b *Batcher) AddWait(ctx context.Context, doc bson.D) error {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.closed {
		return writes.ErrClosed
	}
	select {
	case b.queue <- doc:
		return nil
	case <-ctx.Done():
		return writes.ErrFull
	}
}

// Close stops accepting, flushes everything accepted and waits for it to
// be persisted, until ctx ends (the shutdown deadline).
func (b *Batcher) Close(ctx context.Context) error {
	b.mu.Lock()
	if !b.closed {
		b.closed = true
		close(b.queue)
	}
	b.mu.Unlock()
	select {
	case <-b.done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("bulk: shutdown deadline: %d events accepted but not persisted", len(b.queue))
	}
}

func (b *Batcher) run() {
	defer close(b.done)
	batch := make([]bson.D, 0, b.size)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		select {
		case doc, ok := <-b.queue:
			if !ok {
				b.flush(batch) // closed: write what is left, then stop
				return
			}
			if len(batch) == 0 {
				timer.Reset(b.interval) // the interval counts from the batch's first event
			}
			batch = append(batch, doc)
			metrics.QueueDepth.Set(float64(len(b.queue) + len(batch)))
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

// flush writes a batch until all of it is persisted (writes.Persist): an
// accepted event is never dropped. While it retries, the queue fills and
// Add answers ErrFull.
func (b *Batcher) flush(batch []bson.D) {
	if len(batch) == 0 {
		return
	}
	start := time.Now()
	metrics.BatchSize.Observe(float64(len(batch)))
	writes.Persist(b.write, batch)
	metrics.FlushSeconds.Observe(time.Since(start).Seconds())
	metrics.QueueDepth.Set(float64(len(b.queue)))
}
