// loaderflag: only c.items.Get with the loader (no GetIfPresent first): a lookup is a miss when the loader ran — same counts, one call fewer
// vi: chỉ c.items.Get với loader (không GetIfPresent trước): một lượt tra là miss khi loader đã chạy — cùng số đếm, bớt một lời gọi

//go:build !solution

package main

import (
	"context"
	"sync/atomic"
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

// Get returns the item from memory, or from next, and keeps it for the TTL.
func (c *Cache) Get(ctx context.Context, id int32, next server.Getter) ([]byte, error) {
	var loaded atomic.Bool
	b, err := c.items.Get(ctx, id, otter.LoaderFunc[int32, []byte](func(ctx context.Context, id int32) ([]byte, error) {
		loaded.Store(true)
		return next(ctx, id)
	}))
	if loaded.Load() {
		metrics.CacheLookups.WithLabelValues("memory", "miss").Inc()
	} else {
		metrics.CacheLookups.WithLabelValues("memory", "hit").Inc()
	}
	return b, err
}
