// one_call_per_id: reduces right, then calls IncMany once per distinct id: the writes drop, but a flush of 20 ids is 20 round trips instead of one
// vi: reduce đúng, rồi gọi IncMany một lần cho mỗi id khác nhau: số lượt ghi giảm, nhưng một lượt flush 20 id là 20 round trip thay vì một

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
		var order []string
		for _, d := range docs {
			id := counters.IDOf(d)
			if _, seen := byID[id]; !seen {
				order = append(order, id)
			}
			byID[id] = append(byID[id], d)
		}
		var retry []bson.D
		var errs error
		for _, id := range order {
			if _, err := c.IncMany(ctx, []events.Inc{{ID: id, N: int64(len(byID[id]))}}); err != nil {
				retry = append(retry, byID[id]...)
				errs = events.JoinRefused(errs, err)
			}
		}
		metrics.EventsPersisted.Add(float64(len(docs) - len(retry)))
		return retry, errs
	}
}
