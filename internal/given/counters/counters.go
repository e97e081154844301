// Package counters holds what step 7 hands the learner (claim B9, ours, on
// the method of the author's express-counter.js): an increment as a queued document, the
// writes of the sync, async and bulk variants (one $inc per request), and
// the HTTP shell. Reducing the increments before writing them is the
// exercise (solutions/07-counters).
package counters

import (
	"context"
	"net/http"
	"sync"

	"github.com/labstack/echo/v4"
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/given/events"
	"github.com/peakload/workshop/internal/given/metrics"
	"github.com/peakload/workshop/internal/given/writes"
)

// Doc is an increment in the batcher's queue: {_id: counter id}.
func Doc(id string) bson.D { return bson.D{{Key: "_id", Value: id}} }

// IDOf returns the counter id of a queued increment.
func IDOf(doc bson.D) string {
	id, _ := doc[0].Value.(string)
	return id
}

// IncDoc applies one increment now (sync and async): one round trip, one write.
func IncDoc(c *events.Counters) func(context.Context, bson.D) error {
	return func(ctx context.Context, doc bson.D) error {
		if err := c.IncOne(ctx, IDOf(doc), 1); err != nil {
			return err
		}
		metrics.EventsPersisted.Inc()
		return nil
	}
}

// PerRequest is the bulk variant's write: the batch as one BulkWrite of
// one $inc per request (ordered:false). One round trip, len(docs) writes.
func PerRequest(c *events.Counters) writes.WriteFunc {
	return func(ctx context.Context, docs []bson.D) ([]bson.D, error) {
		incs := make([]events.Inc, len(docs))
		for i, d := range docs {
			incs[i] = events.Inc{ID: IDOf(d), N: 1}
		}
		failed, err := c.IncMany(ctx, incs)
		var retry []bson.D
		for _, i := range failed {
			retry = append(retry, docs[i])
		}
		metrics.EventsPersisted.Add(float64(len(docs) - len(retry)))
		return retry, err
	}
}

// Idempotent makes a batch write exactly-once under retries. $inc is not
// idempotent: when a flush reaches the database but its acknowledgement
// does not (the database killed mid-bulkWrite, a connection reset), the
// batcher's retry would apply the same increments again. Idempotent gives
// every batch a number — a writer id drawn at start, and a sequence that
// grows by one per batch and stays the same on its retries — and hands it
// to IncMany in the context, which writes it into each counter with the
// increment, atomically, and skips counters that already hold it.
//
// The cost: one more field per counter and writer (applied.<writer>, a new
// writer at every start of the server), a filter and a $max in every
// update. It relies on the batcher writing one batch at a time, on write
// passing its ctx on to IncMany, and on each counter appearing once per
// batch — Reduce's output; per-request increments stay at-least-once.
func Idempotent(write writes.WriteFunc) writes.WriteFunc {
	writer := "w" + bson.NewObjectID().Hex()
	var mu sync.Mutex
	var seq int64
	pending := false // a batch not yet written in full: its retries keep its number
	return func(ctx context.Context, docs []bson.D) ([]bson.D, error) {
		mu.Lock()
		defer mu.Unlock()
		if !pending {
			seq++
		}
		retry, err := write(events.WithBatch(ctx, events.Batch{Writer: writer, Seq: seq, Retry: pending}), docs)
		pending = err != nil && len(retry) > 0 // what writes.Persist retries; anything else ends the batch
		return retry, err
	}
}

// Accept is the HTTP shell of the counter variants: POST
// /counters/<variant>/:id increments counter id by one.
func Accept(add func(context.Context, bson.D) error, status int) echo.HandlerFunc {
	return func(c echo.Context) error {
		id := c.Param("id")
		if err := events.CheckCounterID(id); err != nil {
			return echo.NewHTTPError(http.StatusBadRequest, err.Error())
		}
		if err := add(c.Request().Context(), Doc(id)); err != nil {
			return writes.Refuse(c, err) // 422 for a refusal for good, else 503 + Retry-After
		}
		metrics.EventsAccepted.Inc()
		return c.JSONBlob(status, []byte(`{"ok":true}`))
	}
}
