// clonesunbounded: a map of expiry times that keeps a copy of each item (so nobody can modify it) and never evicts: every item ever read stays in memory
// vi: một map thời điểm hết hạn giữ một bản sao của mỗi item (để không ai sửa được nó) và không bao giờ evict: item nào từng được đọc cũng nằm lại trong bộ nhớ

//go:build !solution

package main

import (
	"bytes"
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
	if ok && time.Now().After(e.expires) {
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
		c.items[id] = entry{bytes.Clone(b), time.Now().Add(c.ttl)}
		c.mu.Unlock()
		return b, nil
	})
	if err != nil {
		return nil, err
	}
	return v.([]byte), nil
}
