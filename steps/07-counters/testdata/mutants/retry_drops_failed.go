// retry_drops_failed: on a failed write returns nothing to retry: the failed ids' increments are lost (the batcher thinks all is written)
// vi: lượt ghi fail thì không trả gì để thử lại: phần tăng của các id fail bị mất (batcher tưởng mọi thứ đã ghi xong)

//go:build !solution

package main

import (
	"context"
	"github.com/peakload/workshop/internal/given/counters"
	"github.com/peakload/workshop/internal/given/events"
	"github.com/peakload/workshop/internal/given/metrics"
	"github.com/peakload/workshop/internal/given/writes"
	"go.mongodb.org/mongo-driver/v2/bson"
	"log"
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
		if err != nil {
			log.Printf("counters: %d ids failed: %v", len(failed), err)
		}
		metrics.EventsPersisted.Add(float64(len(docs)))
		return nil, nil
	}
}
