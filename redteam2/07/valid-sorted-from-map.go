// valid: counts in a map[string]int, the Incs built from the map in sorted id order, the retry rebuilt by scanning docs for the failed ids

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
		count := map[string]int64{}
		for _, d := range docs {
			count[counters.IDOf(d)]++
		}
		ids := make([]string, 0, len(count))
		for id := range count {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		incs := make([]events.Inc, len(ids))
		for i, id := range ids {
			incs[i] = events.Inc{ID: id, N: count[id]}
		}
		failed, err := c.IncMany(ctx, incs)
		bad := map[string]bool{}
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
		return retry, err
	}
}
