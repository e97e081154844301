// ctx_dropped: calls IncMany with context.Background(), not the write's ctx: right counts, but a retried flush is applied twice (the batch number travels in ctx)
// vi: gọi IncMany với context.Background(), không phải ctx của lượt ghi: số đếm đúng, nhưng một lượt flush được thử lại bị áp dụng hai lần (số thứ tự của lô đi trong ctx)

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

// Reduce is reduce-before-write, writing with a context of its own.
func Reduce(c *events.Counters) writes.WriteFunc {
	return func(ctx context.Context, docs []bson.D) ([]bson.D, error) {
		counts := map[string]int64{}
		for _, d := range docs {
			counts[counters.IDOf(d)]++
		}
		incs := make([]events.Inc, 0, len(counts))
		for id, n := range counts {
			incs = append(incs, events.Inc{ID: id, N: n})
		}
		failed, err := c.IncMany(context.Background(), incs) // a context of its own: the batch number is lost
		var retry []bson.D
		if len(failed) > 0 {
			lost := map[string]bool{}
			for _, i := range failed {
				lost[incs[i].ID] = true
			}
			for _, d := range docs {
				if lost[counters.IDOf(d)] {
					retry = append(retry, d)
				}
			}
		}
		metrics.EventsPersisted.Add(float64(len(docs) - len(retry)))
		return retry, err
	}
}
