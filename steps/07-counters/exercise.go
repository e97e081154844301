//go:build !solution

package main

import (
	"github.com/peakload/workshop/internal/given/counters"
	"github.com/peakload/workshop/internal/given/events"
	"github.com/peakload/workshop/internal/given/writes"
)

// Reduce is reduce-before-write: the batcher's write for POST
// /counters/reduce/:id.
//
// TODO(step 7): count before you write. The batch holds one document per
// request (counters.IDOf(doc) is its counter id). Instead of one $inc per
// request:
//   - count the requests per id (a map[string]…), keeping the documents of
//     each id so that a failed write can be retried;
//   - call c.IncMany with one events.Inc{ID, N: count} per distinct id;
//   - return the documents of the ids that failed (their indexes come back
//     from IncMany), and add the persisted ones to metrics.EventsPersisted.
//
// Until then it is the bulk variant: one write per request.
func Reduce(c *events.Counters) writes.WriteFunc {
	return counters.PerRequest(c)
}
