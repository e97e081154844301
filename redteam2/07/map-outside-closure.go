// WRONG: byID is made once in Reduce, outside the write, to save allocations: the second flush counts the first flush's requests again

//go:build !solution

package main

import (
	"context"
	"fmt"
	"sort"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/given/counters"
	"github.com/peakload/workshop/internal/given/events"
	"github.com/peakload/workshop/internal/given/metrics"
	"github.com/peakload/workshop/internal/given/writes"
)

var (
	_ = fmt.Sprint
	_ = sort.Strings
)

func Reduce(c *events.Counters) writes.WriteFunc {
	byID := map[string][]bson.D{} // reused across flushes
	return func(ctx context.Context, docs []bson.D) ([]bson.D, error) {
		var incs []events.Inc
		for _, d := range docs {
			id := counters.IDOf(d)
			if len(byID[id]) == 0 || !seenIn(incs, id) {
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
		return retry, err
	}
}

func seenIn(incs []events.Inc, id string) bool {
	for _, in := range incs {
		if in.ID == id {
			return true
		}
	}
	return false
}
