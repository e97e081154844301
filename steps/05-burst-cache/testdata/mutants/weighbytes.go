// weighbytes: MaximumWeight: MaxItems with a Weigher of len(value): the bound is 10 000 bytes, not 10 000 items — about seven items of 1.4 KB stay, and the hot set is read from Redis
// vi: MaximumWeight: MaxItems với một Weigher là len(value): giới hạn là 10 000 byte, không phải 10 000 item — chỉ khoảng bảy item 1.4 KB ở lại, còn các item nóng thì phải đọc từ Redis

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

func New(ttl time.Duration) *Cache {
	return &Cache{items: otter.Must(&otter.Options[int32, []byte]{
		MaximumWeight:    MaxItems,
		Weigher:          func(_ int32, v []byte) uint32 { return uint32(len(v)) },
		ExpiryCalculator: otter.ExpiryWriting[int32, []byte](ttl),
	})}
}

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
