// singleflightset: otter as a plain store (GetIfPresent, Set) and singleflight for the concurrent misses, as in step 4
// vi: otter làm kho trơn (GetIfPresent, Set) và singleflight cho các lượt miss đồng thời, như ở bước 4

//go:build !solution

package main

import (
	"context"
	"strconv"
	"time"

	"github.com/maypok86/otter/v2"
	"golang.org/x/sync/singleflight"

	"github.com/peakload/workshop/internal/given/metrics"
	"github.com/peakload/workshop/internal/given/server"
)

// Cache is the in-process tier.
type Cache struct {
	items   *otter.Cache[int32, []byte]
	flights singleflight.Group
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
	if b, ok := c.items.GetIfPresent(id); ok {
		metrics.CacheLookups.WithLabelValues("memory", "hit").Inc()
		return b, nil
	}
	metrics.CacheLookups.WithLabelValues("memory", "miss").Inc()
	v, err, _ := c.flights.Do(strconv.Itoa(int(id)), func() (any, error) {
		b, err := next(ctx, id)
		if err == nil {
			c.items.Set(id, b)
		}
		return b, err
	})
	if err != nil {
		return nil, err
	}
	return v.([]byte), nil
}
