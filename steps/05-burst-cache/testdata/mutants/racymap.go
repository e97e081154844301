// racymap: a map with expiry and no lock: right one request at a time, "concurrent map writes" under a burst
// vi: một map có thời điểm hết hạn mà không có lock: một request một lúc thì đúng, gặp burst thì "concurrent map writes"

//go:build !solution

package main

import (
	"context"
	"strconv"
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
	items   map[int32]entry
	flights singleflight.Group
}

// New returns a cache whose entries live ttl after they were written.
func New(ttl time.Duration) *Cache { return &Cache{ttl: ttl, items: map[int32]entry{}} }

// Get returns the item from memory, or from next, and keeps it for the TTL.
func (c *Cache) Get(ctx context.Context, id int32, next server.Getter) ([]byte, error) {
	if e, ok := c.items[id]; ok && time.Now().Before(e.expires) {
		metrics.CacheLookups.WithLabelValues("memory", "hit").Inc()
		return e.value, nil
	}
	metrics.CacheLookups.WithLabelValues("memory", "miss").Inc()
	v, err, _ := c.flights.Do(strconv.Itoa(int(id)), func() (any, error) { return next(ctx, id) })
	if err != nil {
		return nil, err
	}
	c.items[id] = entry{v.([]byte), time.Now().Add(c.ttl)}
	return v.([]byte), nil
}
