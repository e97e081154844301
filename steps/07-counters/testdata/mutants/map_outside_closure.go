// map_outside_closure: makes the counting map once, in Reduce, beside the returned func: every flush re-sends the counts of all the flushes before it
// vi: tạo map đếm một lần, trong Reduce, cạnh func được trả về: lượt flush nào cũng gửi lại số đếm của mọi lượt flush trước nó

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
	counts := map[string]int64{}
	return func(ctx context.Context, docs []bson.D) ([]bson.D, error) {
		byID := map[string][]bson.D{}
		for _, d := range docs {
			id := counters.IDOf(d)
			counts[id]++
			byID[id] = append(byID[id], d)
		}
		incs := make([]events.Inc, 0, len(counts))
		for id, n := range counts {
			incs = append(incs, events.Inc{ID: id, N: n})
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
