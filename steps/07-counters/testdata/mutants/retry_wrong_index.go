// retry_wrong_index: retries docs[i] for each failed index i: those are indexes into the increments, so it retries one unrelated request per failed id
// vi: thử lại docs[i] cho mỗi index fail i: đó là index trong danh sách phần tăng, nên nó thử lại một request chẳng liên quan cho mỗi id fail

//go:build !solution

package main

import (
	"context"
	"github.com/peakload/workshop/internal/given/counters"
	"github.com/peakload/workshop/internal/given/events"
	"github.com/peakload/workshop/internal/given/metrics"
	"github.com/peakload/workshop/internal/given/writes"
	"go.mongodb.org/mongo-driver/v2/bson"
)

// Reduce is reduce-before-write.
func Reduce(c *events.Counters) writes.WriteFunc {
	return func(ctx context.Context, docs []bson.D) ([]bson.D, error) {
		byID := map[string][]bson.D{}
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
			retry = append(retry, docs[i])
		}
		metrics.EventsPersisted.Add(float64(len(docs) - len(retry)))
		return retry, err
	}
}
