// WRONG: the ended-request check is done only after a miss's load returns: a request already past its deadline still sends Redis a GET (and waits on it when Redis stalls, if next does not watch ctx)

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
	v, err := c.items.Get(context.Background(), id, otter.LoaderFunc[int32, []byte](func(_ context.Context, id int32) ([]byte, error) {
		// otter's loader ctx is its own; take the request's values along.
		return next(context.WithoutCancel(ctx), id)
	}))
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return v, err
}
