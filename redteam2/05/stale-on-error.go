// WRONG: when next fails, the last good copy is served from a side map with no expiry (stale-if-error): an error never reaches the caller once an id was loaded, and memory is unbounded

//go:build !solution

package main

import (
	"context"
	"sync"
	"time"

	"github.com/maypok86/otter/v2"

	"github.com/peakload/workshop/internal/given/metrics"
	"github.com/peakload/workshop/internal/given/server"
)

// Cache is the in-process tier.
type Cache struct {
	items *otter.Cache[int32, []byte]
}

var lastGood sync.Map // int32 -> []byte: served when the tier below fails

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
		if old, ok := lastGood.Load(id); ok {
			return old.([]byte), nil
		}
		return nil, err
	}
	lastGood.Store(id, v)
	return v, nil
}
