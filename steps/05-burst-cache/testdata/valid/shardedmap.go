// shardedmap: 16 maps, each under its own RWMutex and holding at most MaxItems/16 items (any one goes when a shard is full), and singleflight for the misses: hits of different shards never wait for each other
// vi: 16 map, mỗi map dưới RWMutex riêng và giữ tối đa MaxItems/16 item (shard đầy thì bỏ một item bất kỳ), và singleflight cho các lượt miss: hit ở các shard khác nhau không bao giờ chờ nhau

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

const shards = 16

type entry struct {
	value   []byte
	written time.Time
}

type shard struct {
	mu    sync.RWMutex
	items map[int32]entry
}

// Cache is the in-process tier.
type Cache struct {
	ttl     time.Duration
	shards  [shards]shard
	flights singleflight.Group
}

// New returns a cache whose entries live ttl after they were written.
func New(ttl time.Duration) *Cache {
	c := &Cache{ttl: ttl}
	for i := range c.shards {
		c.shards[i].items = make(map[int32]entry)
	}
	return c
}

func (c *Cache) shard(id int32) *shard { return &c.shards[uint32(id)%shards] }

// Get returns the item from memory, or from next, and keeps it for the TTL.
func (c *Cache) Get(ctx context.Context, id int32, next server.Getter) ([]byte, error) {
	s := c.shard(id)
	s.mu.RLock()
	e, ok := s.items[id]
	s.mu.RUnlock()
	if ok && time.Since(e.written) < c.ttl {
		metrics.CacheLookups.WithLabelValues("memory", "hit").Inc()
		return e.value, nil
	}
	metrics.CacheLookups.WithLabelValues("memory", "miss").Inc()
	v, err, _ := c.flights.Do(strconv.Itoa(int(id)), func() (any, error) {
		b, err := next(ctx, id)
		if err != nil {
			return nil, err
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if _, ok := s.items[id]; !ok && len(s.items) >= MaxItems/shards {
			for k := range s.items { // map order is random: a random victim
				delete(s.items, k)
				break
			}
		}
		s.items[id] = entry{b, time.Now()}
		return b, nil
	})
	if err != nil {
		return nil, err
	}
	return v.([]byte), nil
}
