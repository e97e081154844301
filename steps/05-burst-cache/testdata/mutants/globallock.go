// globallock: a bounded map of expiry times under one mutex held across next: concurrent misses of an id share a load, but one slow id holds up every other request, hits included
// vi: một map thời điểm hết hạn có giới hạn, dưới một mutex giữ suốt lúc gọi next: các lượt miss đồng thời của một id dùng chung một lượt load, nhưng một id chậm chặn mọi request khác, kể cả hit

//go:build !solution

package main

import (
	"context"
	"sync"
	"time"

	"github.com/peakload/workshop/internal/given/metrics"
	"github.com/peakload/workshop/internal/given/server"
)

type entry struct {
	value   []byte
	expires time.Time
}

// Cache is the in-process tier.
type Cache struct {
	ttl   time.Duration
	mu    sync.Mutex // held while loading: the waiters of an id get its item
	items map[int32]entry
}

// New returns a cache whose entries live ttl after they were written.
func New(ttl time.Duration) *Cache { return &Cache{ttl: ttl, items: map[int32]entry{}} }

// Get returns the item from memory, or from next, and keeps it for the TTL.
func (c *Cache) Get(ctx context.Context, id int32, next server.Getter) ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[id]; ok && time.Now().Before(e.expires) {
		metrics.CacheLookups.WithLabelValues("memory", "hit").Inc()
		return e.value, nil
	}
	metrics.CacheLookups.WithLabelValues("memory", "miss").Inc()
	b, err := next(ctx, id)
	if err != nil {
		return nil, err
	}
	if len(c.items) >= MaxItems {
		for k := range c.items { // evict one, any: the map keeps its bound
			delete(c.items, k)
			break
		}
	}
	c.items[id] = entry{b, time.Now().Add(c.ttl)}
	return b, nil
}
