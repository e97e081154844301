// retry_map_order: builds the increments from one range over the map and the ids to retry from another: Go's map order differs between the two, so a failed index names another id
// vi: lập các phần tăng từ một lượt range qua map và các id cần thử lại từ một lượt range khác: thứ tự map của Go khác nhau giữa hai lượt, nên một index fail chỉ nhầm sang id khác

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
		for _, d := range docs {
			id := counters.IDOf(d)
			byID[id] = append(byID[id], d)
		}
		var incs []events.Inc
		for id, ds := range byID {
			incs = append(incs, events.Inc{ID: id, N: int64(len(ds))})
		}
		var ids []string
		for id := range byID {
			ids = append(ids, id)
		}
		failed, err := c.IncMany(ctx, incs)
		var retry []bson.D
		for _, i := range failed {
			retry = append(retry, byID[ids[i]]...)
		}
		metrics.EventsPersisted.Add(float64(len(docs) - len(retry)))
		return retry, err
	}
}
