// error_replaced: returns an error of its own ("flush failed: N ids") instead of IncMany's: the batcher still retries the failed ids, but the refusals IncMany named are lost, so a poisoned counter's increments are retried for ever and the shutdown flush never ends
// vi: trả một lỗi của riêng nó ("flush failed: N ids") thay vì lỗi của IncMany: batcher vẫn thử lại các id fail, nhưng các lần từ chối mà IncMany chỉ ra bị mất, nên phần tăng của một counter bị nhiễm độc được thử lại mãi mãi và lượt flush lúc shutdown không bao giờ xong

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
		var retry []bson.D
		for _, i := range failed {
			retry = append(retry, byID[incs[i].ID]...)
		}
		metrics.EventsPersisted.Add(float64(len(docs) - len(retry)))
		if err != nil {
			return retry, fmt.Errorf("flush failed: %d ids", len(failed))
		}
		return retry, nil
	}
}
