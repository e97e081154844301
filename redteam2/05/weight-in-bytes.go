// WRONG: the bound is made a byte budget (MaximumWeight MaxItems with a len(v) Weigher): the hot set of MaxItems/2 items of 1 KiB does not fit and goes to Redis

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

// New returns a cache of at most MaxItems bytes of items.
func New(ttl time.Duration) *Cache {
	return &Cache{items: otter.Must(&otter.Options[int32, []byte]{
		MaximumWeight:    MaxItems,
		Weigher:          func(_ int32, v []byte) uint32 { return uint32(len(v)) },
		ExpiryCalculator: otter.ExpiryWriting[int32, []byte](ttl),
	})}
}

func (c *Cache) Get(ctx context.Context, id int32, next server.Getter) ([]byte, error) {
	if v, ok := c.items.GetIfPresent(id); ok {
		metrics.CacheLookups.WithLabelValues("memory", "hit").Inc()
		return v, nil
	}
	metrics.CacheLookups.WithLabelValues("memory", "miss").Inc()
	return c.items.Get(ctx, id, otter.LoaderFunc[int32, []byte](func(ctx context.Context, id int32) ([]byte, error) {
		return next(ctx, id)
	}))
}
