// lrulist: no otter: a map and a container/list (least recently used first out) under a mutex that is never held across next, and a channel per load in flight that its waiters wait on
// vi: không dùng otter: một map và một container/list (dùng lâu nhất ra trước) dưới một mutex không bao giờ giữ suốt lúc gọi next, và mỗi lượt load đang chạy một channel để các caller chờ trên đó

//go:build !solution

package main

import (
	"container/list"
	"context"
	"sync"
	"time"

	"github.com/peakload/workshop/internal/given/metrics"
	"github.com/peakload/workshop/internal/given/server"
)

type entry struct {
	id      int32
	value   []byte
	expires time.Time
}

// flight is one load in flight: done closes when value and err are set.
type flight struct {
	done  chan struct{}
	value []byte
	err   error
}

// Cache is the in-process tier.
type Cache struct {
	ttl     time.Duration
	mu      sync.Mutex
	items   map[int32]*list.Element // of *entry, most recently used at the front
	order   *list.List
	flights map[int32]*flight
}

// New returns a cache whose entries live ttl after they were written.
func New(ttl time.Duration) *Cache {
	return &Cache{ttl: ttl, items: map[int32]*list.Element{}, order: list.New(), flights: map[int32]*flight{}}
}

// Get returns the item from memory, or from next, and keeps it for the TTL.
func (c *Cache) Get(ctx context.Context, id int32, next server.Getter) ([]byte, error) {
	c.mu.Lock()
	if el, ok := c.items[id]; ok {
		if e := el.Value.(*entry); time.Now().Before(e.expires) {
			c.order.MoveToFront(el)
			c.mu.Unlock()
			metrics.CacheLookups.WithLabelValues("memory", "hit").Inc()
			return e.value, nil
		}
		c.order.Remove(el)
		delete(c.items, id)
	}
	metrics.CacheLookups.WithLabelValues("memory", "miss").Inc()
	if f, ok := c.flights[id]; ok {
		c.mu.Unlock()
		<-f.done
		return f.value, f.err
	}
	f := &flight{done: make(chan struct{})}
	c.flights[id] = f
	c.mu.Unlock()

	f.value, f.err = next(ctx, id)
	c.mu.Lock()
	delete(c.flights, id)
	if f.err == nil {
		c.store(id, f.value)
	}
	c.mu.Unlock()
	close(f.done)
	return f.value, f.err
}

// store keeps b for the TTL, evicting the least recently used when full.
// c.mu is held.
func (c *Cache) store(id int32, b []byte) {
	for c.order.Len() >= MaxItems {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.items, last.Value.(*entry).id)
	}
	c.items[id] = c.order.PushFront(&entry{id, b, time.Now().Add(c.ttl)})
}
