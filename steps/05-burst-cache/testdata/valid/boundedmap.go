// boundedmap: a map of expiry times under a mutex, singleflight for the misses, and a bound: when full, expired entries go, and if that is not enough the map starts over
// vi: một map thời điểm hết hạn dưới một mutex, singleflight cho các lượt miss, và một giới hạn: khi đầy, entry đã hết hạn bị bỏ, và nếu vẫn chưa đủ thì map làm lại từ đầu

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
	written time.Time
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
	c.mu.Unlock()
	if ok && time.Since(e.written) < c.ttl {
		metrics.CacheLookups.WithLabelValues("memory", "hit").Inc()
		return e.value, nil
	}
	metrics.CacheLookups.WithLabelValues("memory", "miss").Inc()
	v, err, _ := c.flights.Do(strconv.Itoa(int(id)), func() (any, error) {
		b, err := next(ctx, id)
		if err == nil {
			c.store(id, b)
		}
		return b, err
	})
	if err != nil {
		return nil, err
	}
	return v.([]byte), nil
}

func (c *Cache) store(id int32, b []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.items) >= MaxItems {
		for k, e := range c.items {
			if time.Since(e.written) >= c.ttl {
				delete(c.items, k)
			}
		}
		if len(c.items) >= MaxItems {
			clear(c.items) // a burst of cold items: start over rather than grow
		}
	}
	c.items[id] = entry{b, time.Now()}
}
