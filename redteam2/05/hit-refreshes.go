// WRONG: a hit Set's the entry again to keep hot items hot: ExpiryWriting counts from the last write, so an item read often never expires

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
		MaximumSize:      MaxItems,
		ExpiryCalculator: otter.ExpiryWriting[int32, []byte](ttl),
	})}
}

func (c *Cache) Get(ctx context.Context, id int32, next server.Getter) ([]byte, error) {
	if v, ok := c.items.GetIfPresent(id); ok {
		metrics.CacheLookups.WithLabelValues("memory", "hit").Inc()
		c.items.Set(id, v) // hot: keep it
		return v, nil
	}
	metrics.CacheLookups.WithLabelValues("memory", "miss").Inc()
	return c.items.Get(ctx, id, otter.LoaderFunc[int32, []byte](func(ctx context.Context, id int32) ([]byte, error) {
		return next(ctx, id)
	}))
}
