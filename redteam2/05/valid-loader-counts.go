// valid: only c.items.Get, the miss counted inside the loader and the hit otherwise (a waiter counts as a hit), the slice copied on the way out

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
	loaded := false
	v, err := c.items.Get(ctx, id, otter.LoaderFunc[int32, []byte](func(ctx context.Context, id int32) ([]byte, error) {
		loaded = true
		metrics.CacheLookups.WithLabelValues("memory", "miss").Inc()
		return next(ctx, id)
	}))
	if !loaded {
		metrics.CacheLookups.WithLabelValues("memory", "hit").Inc()
	}
	if err != nil {
		return nil, err
	}
	return append([]byte(nil), v...), nil
}
