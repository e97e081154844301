// WRONG: the requests of an id are deduplicated (a set of ids, N: 1 each) — the documents are identical, so they look like duplicates — and each counter grows by one per flush instead of by its requests

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
	return func(ctx context.Context, docs []bson.D) ([]bson.D, error) {
		byID := map[string][]bson.D{}
		var incs []events.Inc
		for _, d := range docs {
			id := counters.IDOf(d)
			if _, ok := byID[id]; !ok {
				incs = append(incs, events.Inc{ID: id})
			}
			byID[id] = append(byID[id], d)
		}
		for i := range incs {
			incs[i].N = 1 // one $inc per distinct id
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
