// sort_and_run: sorts the batch by id and counts runs of equal ids (no map): the same one $inc per distinct id, in id order
// vi: sắp lô theo id và đếm từng dãy id giống nhau (không dùng map): vẫn mỗi id khác nhau một $inc, theo thứ tự id

//go:build !solution

package main

import (
	"context"
	"github.com/peakload/workshop/internal/given/counters"
	"github.com/peakload/workshop/internal/given/events"
	"github.com/peakload/workshop/internal/given/metrics"
	"github.com/peakload/workshop/internal/given/writes"
	"go.mongodb.org/mongo-driver/v2/bson"
	"slices"
	"strings"
)

// Reduce is reduce-before-write.
func Reduce(c *events.Counters) writes.WriteFunc {
	return func(ctx context.Context, docs []bson.D) ([]bson.D, error) {
		sorted := slices.Clone(docs)
		slices.SortFunc(sorted, func(a, b bson.D) int { return strings.Compare(counters.IDOf(a), counters.IDOf(b)) })
		var incs []events.Inc
		var starts []int // where each id's run begins in sorted
		for i, d := range sorted {
			if id := counters.IDOf(d); i == 0 || id != incs[len(incs)-1].ID {
				incs = append(incs, events.Inc{ID: id})
				starts = append(starts, i)
			}
			incs[len(incs)-1].N++
		}
		failed, err := c.IncMany(ctx, incs)
		var retry []bson.D
		for _, i := range failed {
			retry = append(retry, sorted[starts[i]:starts[i]+int(incs[i].N)]...)
		}
		metrics.EventsPersisted.Add(float64(len(docs) - len(retry)))
		return retry, err
	}
}
