// sharedflag: c.items.Get with the loader, a miss when the loader ran — but the flag is one field of the Cache, shared by every request: the counts are right one request at a time, wrong when requests overlap
// vi: c.items.Get với loader, tính là miss khi loader đã chạy — nhưng cờ đó là một field của Cache, mọi request dùng chung: một request một lúc thì số đếm đúng, request chồng lên nhau thì sai

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
	items  *otter.Cache[int32, []byte]
	loaded atomic.Bool
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
	c.loaded.Store(false)
	b, err := c.items.Get(ctx, id, otter.LoaderFunc[int32, []byte](func(ctx context.Context, id int32) ([]byte, error) {
		c.loaded.Store(true)
		return next(ctx, id)
	}))
	if c.loaded.Load() {
		metrics.CacheLookups.WithLabelValues("memory", "miss").Inc()
	} else {
		metrics.CacheLookups.WithLabelValues("memory", "hit").Inc()
	}
	return b, err
}
