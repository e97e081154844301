// index_by_id: remembers each id's position among the increments and filters the batch by the failed ids, keeping the requests' order: the same single write and the same retry
// vi: nhớ vị trí của mỗi id trong danh sách phần tăng và lọc lô theo các id fail, giữ thứ tự của các request: cùng một lượt ghi và cùng cách thử lại

//go:build !solution

package main

import (
	"context"
	"fmt"
	"github.com/peakload/workshop/internal/given/counters"
	"github.com/peakload/workshop/internal/given/events"
	"github.com/peakload/workshop/internal/given/metrics"
	"github.com/peakload/workshop/internal/given/writes"
	"go.mongodb.org/mongo-driver/v2/bson"
)

// Reduce is reduce-before-write.
func Reduce(c *events.Counters) writes.WriteFunc {
	return func(ctx context.Context, docs []bson.D) ([]bson.D, error) {
		at := map[string]int{} // id -> its index in incs
		var incs []events.Inc
		for _, d := range docs {
			id := counters.IDOf(d)
			i, ok := at[id]
			if !ok {
				i = len(incs)
				at[id] = i
				incs = append(incs, events.Inc{ID: id})
			}
			incs[i].N++
		}
		failed, err := c.IncMany(ctx, incs)
		bad := make(map[string]bool, len(failed))
		for _, i := range failed {
			bad[incs[i].ID] = true
		}
		var retry []bson.D
		for _, d := range docs {
			if bad[counters.IDOf(d)] {
				retry = append(retry, d)
			}
		}
		metrics.EventsPersisted.Add(float64(len(docs) - len(retry)))
		if err != nil {
			return retry, fmt.Errorf("reduce %d requests over %d ids: %w", len(docs), len(incs), err)
		}
		return retry, nil
	}
}
