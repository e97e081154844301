// persisted_before_write: counts every request as persisted before the write, failed or not
// vi: đếm mọi request là đã ghi xuống trước khi ghi, fail hay không

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
		metrics.EventsPersisted.Add(float64(len(docs)))
		failed, err := c.IncMany(ctx, incs)
		var retry []bson.D
		for _, i := range failed {
			retry = append(retry, byID[incs[i].ID]...)
		}
		return retry, err
	}
}
