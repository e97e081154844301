// deadlineonly: gives next the request's values and deadline on a context of its own, without its cancellation: a request whose client hung up waits on a stalled Redis until the deadline
// vi: đưa next các value và deadline của request trên một context riêng, không kèm việc huỷ: request mà client đã bỏ đi vẫn chờ một Redis đang treo cho tới deadline

//go:build !solution

package main

import (
	"context"
	"time"

	"github.com/maypok86/otter/v2"

	"github.com/peakload/workshop/internal/given/metrics"
	"github.com/peakload/workshop/internal/given/server"
)

type Cache struct {
	items *otter.Cache[int32, []byte]
}

func New(ttl time.Duration) *Cache {
	return &Cache{items: otter.Must(&otter.Options[int32, []byte]{
		MaximumSize:      MaxItems,
		ExpiryCalculator: otter.ExpiryWriting[int32, []byte](ttl),
	})}
}

func (c *Cache) Get(ctx context.Context, id int32, next server.Getter) ([]byte, error) {
	if b, ok := c.items.GetIfPresent(id); ok {
		metrics.CacheLookups.WithLabelValues("memory", "hit").Inc()
		return b, nil
	}
	metrics.CacheLookups.WithLabelValues("memory", "miss").Inc()
	// The load keeps the request's budget, but one client hanging up must not end it.
	shared := context.WithoutCancel(ctx)
	if d, ok := ctx.Deadline(); ok {
		var cancel context.CancelFunc
		shared, cancel = context.WithDeadline(shared, d)
		defer cancel()
	}
	return c.items.Get(shared, id, otter.LoaderFunc[int32, []byte](func(ctx context.Context, id int32) ([]byte, error) {
		return next(ctx, id)
	}))
}
