// Package writes holds what step 6 hands the learner around the batcher:
// the write function's type, the retry loop that never drops an accepted
// event, the bounded buffer in front of every batcher (Buffer) and its
// errors, the HTTP shell of every write variant, and the variants the
// batcher is compared with (sync, async, group). The loop that drains the
// buffer in batches is the exercise (solutions/06-buffered-writes: Run).
package writes

import (
	"context"
	"errors"
	"log"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/given/metrics"
)

// FlushInterval is the author's: a batch waits at most one second.
const FlushInterval = time.Second

// AttemptTimeout is one write attempt's own budget (Persist gives each
// attempt a fresh one): a write stuck on a connection to a database that
// went away ends after it and is tried again, however long the outage.
// MaxBackoff is the longest pause between two attempts.
const (
	AttemptTimeout = 30 * time.Second
	MaxBackoff     = 2 * time.Second
)

var (
	// ErrFull: the buffer is at capacity; the client should retry later (503).
	ErrFull = errors.New("event buffer is full")
	// ErrClosed: the server is shutting down.
	ErrClosed = errors.New("event buffer is closed")
)

// WriteFunc persists a batch in one round trip and returns the documents
// that must be tried again (events.Store.InsertMany). Wrapped in
// DeadLetter, what the database refused for good is no longer among them:
// the error then says what was refused, and retry holds only what failed
// for a reason that can pass (the network, a timeout, a restart).
type WriteFunc func(ctx context.Context, docs []bson.D) (retry []bson.D, err error)

// Persist calls write until nothing is left to retry, backing off
// exponentially (50 ms … 2 s) while the database fails or restarts: an
// accepted event is never dropped. It stops when retry is empty, even if
// err is not nil: a write that only refused documents for good (Refused,
// dead-lettered) has nothing left that another attempt could write.
func Persist(write WriteFunc, docs []bson.D) {
	backoff := 50 * time.Millisecond
	for len(docs) > 0 {
		ctx, cancel := context.WithTimeout(context.Background(), AttemptTimeout) // per attempt: a shared deadline would fail every retry after it
		retry, err := write(ctx, docs)
		cancel()
		if err == nil || len(retry) == 0 {
			return
		}
		metrics.FlushRetries.Inc()
		log.Printf("writes: %v — retrying %d events in %s", err, len(retry), backoff)
		docs = retry
		time.Sleep(backoff)
		backoff = min(2*backoff, MaxBackoff)
	}
}

// WaitForRoom turns a full buffer into latency before it turns it into a
// refusal: add is tried again, a few milliseconds apart, until it takes the
// document or max has passed; only then does the client get ErrFull (503 +
// Retry-After). Without it a saturating load is refused as soon as the
// buffer is full, every refused client sleeps the whole Retry-After (1 s,
// HTTP's smallest), and the flusher empties the buffer and then waits with
// nothing to write: the database idles while clients sleep, and the rate
// persisted falls to about the buffer's capacity per second.
func WaitForRoom(add func(bson.D) error, max time.Duration) func(context.Context, bson.D) error {
	return func(ctx context.Context, doc bson.D) error {
		deadline := time.Now().Add(max)
		pause := time.Millisecond
		for {
			err := add(doc)
			if !errors.Is(err, ErrFull) || time.Now().After(deadline) {
				return err
			}
			select {
			case <-ctx.Done():
				return ErrFull
			case <-time.After(pause):
			}
			pause = min(2*pause, 20*time.Millisecond)
		}
	}
}
