// WRONG: stale-if-error with a bound — when next fails, the last good copy (kept a minute, at most MaxItems) is served instead of the error: the error never reaches the caller of an id that was loaded in the last minute

//go:build !solution

package main

import (
	"context"
	"time"

	"github.com/maypok86/otter/v2"

	"github.com/peakload/workshop/internal/given/metrics"
	"github.com/peakload/workshop/internal/given/server"
)

// Cache is the in-process tier.
type Cache struct {
	items *otter.Cache[int32, []byte]
}

// lastGood keeps the last good copy of each id a while longer, bounded as the
// cache is: served when the tier below fails (stale-if-error).
var lastGood = otter.Must(&otter.Options[int32, []byte]{
	MaximumSize:      MaxItems,
	ExpiryCalculator: otter.ExpiryWriting[int32, []byte](time.Minute),
})

// New returns a cache whose entries live ttl after they were written.
func New(ttl time.Duration) *Cache {
	return &Cache{items: otter.Must(&otter.Options[int32, []byte]{
		MaximumSize:      MaxItems,
		ExpiryCalculator: otter.ExpiryWriting[int32, []byte](ttl),
	})}
}

func (c *Cache) Get(ctx context.Context, id int32, next server.Getter) ([]byte, error) {
	if v, ok := c.items.GetIfPresent(id); ok {
		metrics.CacheLookups.WithLabelValues("memory", "hit").Inc()
		return v, nil
	}
	metrics.CacheLookups.WithLabelValues("memory", "miss").Inc()
	v, err := c.items.Get(ctx, id, otter.LoaderFunc[int32, []byte](func(ctx context.Context, id int32) ([]byte, error) {
		return next(ctx, id)
	}))
	if err != nil {
		if old, ok := lastGood.GetIfPresent(id); ok {
			return old, nil
		}
		return nil, err
	}
	lastGood.Set(id, v)
	return v, nil
}
