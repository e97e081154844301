// onceclear: otter without an ExpiryCalculator, emptied by a time.AfterFunc(ttl) started in New: the first TTL expires everything, later entries never expire
// vi: otter không có ExpiryCalculator, và một time.AfterFunc(ttl) khởi động trong New dọn sạch nó: hết TTL đầu tiên là mọi thứ hết hạn, còn các entry sau đó thì không bao giờ hết hạn

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
	c := &Cache{items: otter.Must(&otter.Options[int32, []byte]{MaximumSize: MaxItems})}
	time.AfterFunc(ttl, c.items.InvalidateAll) // the burst is over: start afresh
	return c
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
