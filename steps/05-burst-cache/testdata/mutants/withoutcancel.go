// withoutcancel: hands next context.WithoutCancel(ctx): the trace id goes on, the deadline and the cancellation do not — a request whose client has gone still waits on a stalled Redis, then reads PostgreSQL for nobody
// vi: đưa next context.WithoutCancel(ctx): trace id đi tiếp, còn deadline và việc huỷ thì không — request mà client đã bỏ đi vẫn chờ một Redis đang treo, rồi đọc PostgreSQL mà chẳng còn ai nhận

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
	// The load is shared by every caller of id: no one caller's cancel may end it.
	shared := context.WithoutCancel(ctx)
	return c.items.Get(shared, id, otter.LoaderFunc[int32, []byte](func(ctx context.Context, id int32) ([]byte, error) {
		return next(ctx, id)
	}))
}
