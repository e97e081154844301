//go:build !solution

package main

import (
	"context"
	"time"

	"github.com/maypok86/otter/v2"

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

// Get returns the item from memory, or from next (Redis, then the
// database) and keeps it for the TTL.
//
// TODO(step 5): serve from c.items while the entry lives.
//   - c.items.GetIfPresent(id): a hit returns at once — no Redis round trip;
//   - on a miss, c.items.Get(ctx, id, otter.LoaderFunc[int32, []byte](...))
//     calls next once for all concurrent misses of id and stores the result;
//   - count the lookups: metrics.CacheLookups.WithLabelValues("memory", "hit"/"miss");
//   - an error from next must not be cached.
//
// Until then every request goes to Redis, as in step 4.
func (c *Cache) Get(ctx context.Context, id int32, next server.Getter) ([]byte, error) {
	return next(ctx, id)
}
