// WRONG: IncMany runs on a fresh context.WithTimeout(context.Background(), 5s): the batch number counters.Idempotent put in ctx is lost, so a retry after a lost acknowledgement counts twice

//go:build !solution

package main

import (
	"context"
	"fmt"
	"sort"
	"time"

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
			incs[i].N = int64(len(byID[incs[i].ID]))
		}
		// The write gets a budget of its own, whatever the caller's ctx.
		wctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		failed, err := c.IncMany(wctx, incs)
		var retry []bson.D
		for _, i := range failed {
			retry = append(retry, byID[incs[i].ID]...)
		}
		metrics.EventsPersisted.Add(float64(len(docs) - len(retry)))
		return retry, err
	}
}
