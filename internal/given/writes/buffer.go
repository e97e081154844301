package writes

import (
	"context"
	"fmt"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// Buffer is the bounded queue in front of a writer (group's, step 6's
// batcher, step 7's): requests add to it and are answered at once, one
// goroutine drains it. It is given: the exercise is what drains it.
// Bounded, so memory never grows past capacity while the database is slow.
type Buffer struct {
	name   string // says whose deadline ran out at shutdown
	queue  chan bson.D
	done   chan struct{}
	mu     sync.RWMutex // adds hold it shared; Close exclusive, to close queue safely
	closed bool
}

// NewBuffer makes a buffer for at most capacity documents not yet written;
// name (the variant: "group", "bulk"…) prefixes its shutdown error.
func NewBuffer(name string, capacity int) *Buffer {
	return &Buffer{name: name, queue: make(chan bson.D, capacity), done: make(chan struct{})}
}

// Queue is the writer's side: it takes documents until Close closes it.
func (b *Buffer) Queue() <-chan bson.D { return b.queue }

// Done is closed by the writer once everything taken is written; Close
// waits for it.
func (b *Buffer) Done() chan<- struct{} { return b.done }

// Add accepts a document without waiting for the database. ErrFull is
// backpressure: the caller answers 503 with Retry-After instead of letting
// memory grow while the database is slow or down.
func (b *Buffer) Add(doc bson.D) error {
	return b.add(nil, doc)
}

// AddWait is Add that waits for room instead of refusing, and gives up
// with ErrFull when ctx ends (the client went away). insert_group buffered
// everything; a bounded buffer makes the client wait instead.
func (b *Buffer) AddWait(ctx context.Context, doc bson.D) error {
	return b.add(ctx.Done(), doc)
}

// add waits for room until giveUp is closed; a nil giveUp never waits.
func (b *Buffer) add(giveUp <-chan struct{}, doc bson.D) error {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.closed {
		return ErrClosed
	}
	if giveUp == nil {
		select {
		case b.queue <- doc:
			return nil
		default:
			return ErrFull
		}
	}
	select {
	case b.queue <- doc:
		return nil
	case <-giveUp:
		return ErrFull
	}
}

// Close stops accepting and waits until the writer has written everything
// accepted, until ctx ends (the shutdown deadline).
func (b *Buffer) Close(ctx context.Context) error {
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
		return fmt.Errorf("%s: shutdown deadline: %d events accepted but not persisted", b.name, len(b.queue))
	}
}

// BatchLoop is the shape of step 6's answer as a function: take documents
// from queue, write them in batches of size or every interval, flush what
// is left when queue is closed, then close done.
type BatchLoop func(queue <-chan bson.D, done chan<- struct{}, size int, interval time.Duration, write WriteFunc)

// Batch starts run over a new Buffer: a batcher for a later step (step 7
// passes step 6's answer) or for the answer's own tests.
func Batch(name string, size, capacity int, interval time.Duration, write WriteFunc, run BatchLoop) *Buffer {
	b := NewBuffer(name, capacity)
	go run(b.queue, b.done, size, interval, write)
	return b
}
