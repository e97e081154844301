// bigbound: MaximumSize: 1_000_000: bounded on paper, but 1.5 GB of items before anything is evicted
// vi: MaximumSize: 1_000_000: trên giấy là có giới hạn, nhưng phải đầy 1.5 GB item thì mới có gì bị evict

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

// New returns a cache whose entries live ttl after they were written.
func New(ttl time.Duration) *Cache {
	return &Cache{items: otter.Must(&otter.Options[int32, []byte]{
		MaximumSize:      1_000_000,
		ExpiryCalculator: otter.ExpiryWriting[int32, []byte](ttl),
	})}
}

// Get returns the item from memory, or from next, and keeps it for the TTL.
func (c *Cache) Get(ctx context.Context, id int32, next server.Getter) ([]byte, error) {
	if b, ok := c.items.GetIfPresent(id); ok {
		metrics.CacheLookups.WithLabelValues("memory", "hit").Inc()
		return b, nil
	}
	metrics.CacheLookups.WithLabelValues("memory", "miss").Inc()
	return c.items.Get(ctx, id, otter.LoaderFunc[int32, []byte](func(ctx context.Context, id int32) ([]byte, error) {
		return next(ctx, id)
	}))
}
