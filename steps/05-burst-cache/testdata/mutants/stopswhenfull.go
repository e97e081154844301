// stopswhenfull: a map of expiry times and singleflight, bounded by refusing new items once MaxItems are held: once full, every new id goes to Redis for ever
// vi: một map thời điểm hết hạn và singleflight, giới hạn bằng cách từ chối item mới khi đã giữ đủ MaxItems: đầy rồi thì mọi id mới đều đi tới Redis mãi mãi

//go:build !solution

package main

import (
	"context"
	"strconv"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/peakload/workshop/internal/given/metrics"
	"github.com/peakload/workshop/internal/given/server"
)

type entry struct {
	value   []byte
	expires time.Time
}

// Cache is the in-process tier.
type Cache struct {
	ttl     time.Duration
	mu      sync.Mutex
	items   map[int32]entry
	flights singleflight.Group
}

// New returns a cache whose entries live ttl after they were written.
func New(ttl time.Duration) *Cache { return &Cache{ttl: ttl, items: map[int32]entry{}} }

// Get returns the item from memory, or from next, and keeps it for the TTL.
func (c *Cache) Get(ctx context.Context, id int32, next server.Getter) ([]byte, error) {
	c.mu.Lock()
	e, ok := c.items[id]
	if ok && !time.Now().Before(e.expires) {
		delete(c.items, id)
		ok = false
	}
	c.mu.Unlock()
	if ok {
		metrics.CacheLookups.WithLabelValues("memory", "hit").Inc()
		return e.value, nil
	}
	metrics.CacheLookups.WithLabelValues("memory", "miss").Inc()
	v, err, _ := c.flights.Do(strconv.Itoa(int(id)), func() (any, error) {
		b, err := next(ctx, id)
		if err != nil {
			return nil, err
		}
		c.mu.Lock()
		if len(c.items) < MaxItems { // full: the item is served, not kept
			c.items[id] = entry{b, time.Now().Add(c.ttl)}
		}
		c.mu.Unlock()
		return b, nil
	})
	if err != nil {
		return nil, err
	}
	return v.([]byte), nil
}
