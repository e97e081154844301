// WRONG: a miss calls next itself and Set's the result: concurrent misses of one id each call the tier below

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
		return v, nil
	}
	metrics.CacheLookups.WithLabelValues("memory", "miss").Inc()
	v, err := next(ctx, id)
	if err != nil {
		return nil, err
	}
	c.items.Set(id, v)
	return v, nil
}
