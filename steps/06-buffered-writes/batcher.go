//go:build !solution

package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/writes"
)

// Given: the batcher's state, New, Add and Close. Your work is run (and,
// if you must, flush) in exercise.go.

// The errors and the write function's type are given (internal/writes), so
// the HTTP shell (writes.Accept) answers 503 + Retry-After for a full buffer.
var (
	ErrFull   = writes.ErrFull
	ErrClosed = writes.ErrClosed
)

// Batcher buffers documents and writes them in batches.
type Batcher struct {
	size     int
	interval time.Duration
	write    writes.WriteFunc
	queue    chan bson.D
	done     chan struct{}
	mu       sync.RWMutex
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

// Add accepts a document without waiting for the database.
func (b *Batcher) Add(doc bson.D) error {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.closed {
		return ErrClosed
	}
	select {
	case b.queue <- doc:
		return nil
	default:
		return ErrFull
	}
}

// Close stops accepting and waits until run has written everything.
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
		return fmt.Errorf("shutdown deadline: %d events accepted but not persisted", len(b.queue))
	}
}
