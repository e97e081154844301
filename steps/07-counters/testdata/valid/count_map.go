// count_map: counts in a map[string]int64 and keeps the documents per failed id only when needed (a second pass over docs): the same writes and values
// vi: đếm trong một map[string]int64 và chỉ giữ các document theo id fail khi cần (một lượt nữa qua docs): cùng số lượt ghi và giá trị

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
		counts := map[string]int64{}
		for _, d := range docs {
			counts[counters.IDOf(d)]++
		}
		incs := make([]events.Inc, 0, len(counts))
		for id, n := range counts {
			incs = append(incs, events.Inc{ID: id, N: n})
		}
		failed, err := c.IncMany(ctx, incs)
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
