// Package writes holds what step 6 hands the learner around the batcher:
// the write function's type, the retry loop that never drops an accepted
// event, the buffer's errors, the HTTP shell of every write variant, and
// the variants the batcher is compared with (sync, async, group). The
// batcher itself is the exercise (solutions/06-buffered-writes).
package writes

import (
	"context"
	"errors"
	"log"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/metrics"
)

// FlushInterval is the author's: a batch waits at most one second.
const FlushInterval = time.Second

var (
	// ErrFull: the buffer is at capacity; the client should retry later (503).
	ErrFull = errors.New("event buffer is full")
	// ErrClosed: the server is shutting down.
	ErrClosed = errors.New("event buffer is closed")
)

// WriteFunc persists a batch in one round trip and returns the documents
// that must be tried again (events.Store.InsertMany).
type WriteFunc func(ctx context.Context, docs []bson.D) (retry []bson.D, err error)

// Persist calls write until nothing is left to retry, backing off
// exponentially (50 ms … 2 s) while the database fails or restarts: an
// accepted event is never dropped.
func Persist(write WriteFunc, docs []bson.D) {
	backoff := 50 * time.Millisecond
	for len(docs) > 0 {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		retry, err := write(ctx, docs)
		cancel()
		if err == nil {
			return
		}
		metrics.FlushRetries.Inc()
		log.Printf("writes: %v — retrying %d events in %s", err, len(retry), backoff)
		docs = retry
		time.Sleep(backoff)
		backoff = min(2*backoff, 2*time.Second)
	}
}
