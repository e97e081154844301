// inc_one_per_id: reduces right, then IncOne per distinct id in a loop: the same writes and values, one round trip per id
// vi: reduce đúng, rồi gọi IncOne cho từng id khác nhau trong một vòng lặp: cùng số lượt ghi và giá trị, nhưng mỗi id một round trip

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
		var retry []bson.D
		var errs error
		for id, ds := range byID {
			if err := c.IncOne(ctx, id, int64(len(ds))); err != nil {
				retry = append(retry, ds...)
				errs = events.JoinRefused(errs, err)
			}
		}
		metrics.EventsPersisted.Add(float64(len(docs) - len(retry)))
		return retry, errs
	}
}
