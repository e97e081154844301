// noredis: a miss answers (nil, nil) without asking the next tier: Redis is never consulted
// vi: một lượt miss trả (nil, nil) mà không hỏi tầng sau: Redis không bao giờ được hỏi tới

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

// Get returns the item from memory, or from next, and keeps it for the TTL.
func (c *Cache) Get(_ context.Context, id int32, _ server.Getter) ([]byte, error) {
	if b, ok := c.items.GetIfPresent(id); ok {
		metrics.CacheLookups.WithLabelValues("memory", "hit").Inc()
		return b, nil
	}
	metrics.CacheLookups.WithLabelValues("memory", "miss").Inc()
	return nil, nil // the next tier is never asked
}
