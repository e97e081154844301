// retry_all_on_partial: when any id fails, returns the whole batch to retry: the ids that succeeded are sent again (and counted twice without the batch guard)
// vi: có id nào fail là trả cả lô để thử lại: các id đã thành công bị gửi lại (và bị đếm hai lần nếu không có chốt chặn theo lô)

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
		var incs []events.Inc
		for _, d := range docs {
			id := counters.IDOf(d)
			if counts[id] == 0 {
				incs = append(incs, events.Inc{ID: id})
			}
			counts[id]++
		}
		for i := range incs {
			incs[i].N = counts[incs[i].ID]
		}
		failed, err := c.IncMany(ctx, incs)
		if len(failed) > 0 {
			return docs, err // simpler: try the batch again
		}
		metrics.EventsPersisted.Add(float64(len(docs)))
		return nil, err
	}
}
