// WRONG: stale-while-revalidate — entries are refreshed in the background once 3/4 of the TTL has passed: a read near the end of the TTL loads, and a refreshed entry outlives its write by far more than the TTL

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
		MaximumSize:       MaxItems,
		ExpiryCalculator:  otter.ExpiryWriting[int32, []byte](ttl),
		RefreshCalculator: otter.RefreshWriting[int32, []byte](ttl * 3 / 4), // no burst at expiry
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
