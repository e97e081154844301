// forevermap: a plain map under a mutex, no TTL and no bound: fast in a quick test, stale and growing in production
// vi: một map trơn dưới một mutex, không TTL và không giới hạn: test nhanh thì nhanh, lên production thì cũ và phình ra

//go:build !solution

package main

import (
	"context"
	"sync"
	"time"

	"github.com/peakload/workshop/internal/given/metrics"
	"github.com/peakload/workshop/internal/given/server"
)

// Cache is the in-process tier.
type Cache struct {
	mu    sync.Mutex
	items map[int32][]byte
}

// New returns a cache.
func New(time.Duration) *Cache { return &Cache{items: map[int32][]byte{}} }

// Get returns the item from memory, or from next.
func (c *Cache) Get(ctx context.Context, id int32, next server.Getter) ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if b, ok := c.items[id]; ok {
		metrics.CacheLookups.WithLabelValues("memory", "hit").Inc()
		return b, nil
	}
	metrics.CacheLookups.WithLabelValues("memory", "miss").Inc()
	b, err := next(ctx, id)
	if err != nil {
		return nil, err
	}
	c.items[id] = b
	return b, nil
}
