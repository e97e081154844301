// Package reduce is the reference of step 7 (claim B9, ours, on the
// method of the author's express-counter.js): counters incremented with $inc and upsert. Batching
// the increments (step 6's batcher, one BulkWrite per flush) saves round
// trips but still writes once per request; reducing first — counting the
// increments per id in the batch, one $inc per distinct id — saves the
// writes themselves. Under a hot-skewed load, 1 000 increments are a few
// dozen writes.
package reduce

import (
	"context"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/given/counters"
	"github.com/peakload/workshop/internal/given/events"
	"github.com/peakload/workshop/internal/given/metrics"
	"github.com/peakload/workshop/internal/given/writes"
)

// Reduce is reduce-before-write: count the batch's increments per id and
// send one $inc of that count per distinct id. One round trip, as many
// writes as distinct ids; the final values are the same.
func Reduce(c *events.Counters) writes.WriteFunc {
	return func(ctx context.Context, docs []bson.D) ([]bson.D, error) {
		byID := map[string][]bson.D{} // the requests behind each id, to retry them
		var incs []events.Inc
		for _, d := range docs {
			id := counters.IDOf(d)
			if _, seen := byID[id]; !seen {
				incs = append(incs, events.Inc{ID: id})
			}
			byID[id] = append(byID[id], d)
		}
		for i := range incs {
			incs[i].N = int64(len(byID[incs[i].ID]))
		}
		failed, err := c.IncMany(ctx, incs)
		var retry []bson.D
		for _, i := range failed {
			retry = append(retry, byID[incs[i].ID]...)
		}
		metrics.EventsPersisted.Add(float64(len(docs) - len(retry)))
		return retry, err
	}
}
