// perkeylock: a short lock only around the map, one result channel per waiter fed by the load's goroutine: no lock is held while a load runs, so other keys and impatient callers never wait for it
// vi: một lock ngắn chỉ quanh map, mỗi caller đang chờ một channel kết quả do goroutine của lượt load đổ vào: không lock nào bị giữ khi lượt load chạy, nên key khác và caller sốt ruột không bao giờ phải chờ nó

//go:build !solution

package main

import (
	"context"
	"fmt"
	"sync"
	"time"
)

type result struct {
	value []byte
	err   error
}

// Group coalesces concurrent loads of the same key.
type Group struct {
	mu      sync.Mutex
	waiters map[string][]chan result // the callers of each load in flight
}

// Load runs load once for all concurrent callers of key and gives each the result.
func (g *Group) Load(ctx context.Context, key string, load func(context.Context) ([]byte, error)) ([]byte, error) {
	ch := make(chan result, 1) // buffered: the load never waits for a caller that left
	g.mu.Lock()
	if g.waiters == nil {
		g.waiters = map[string][]chan result{}
	}
	_, inFlight := g.waiters[key]
	g.waiters[key] = append(g.waiters[key], ch)
	g.mu.Unlock()
	if !inFlight {
		go g.run(context.WithoutCancel(ctx), key, load)
	}
	select {
	case r := <-ch:
		return r.value, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (g *Group) run(ctx context.Context, key string, load func(context.Context) ([]byte, error)) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	v, err := safely(ctx, load)
	g.mu.Lock()
	chans := g.waiters[key]
	delete(g.waiters, key)
	g.mu.Unlock()
	for _, ch := range chans {
		ch <- result{v, err}
	}
}

func safely(ctx context.Context, load func(context.Context) ([]byte, error)) (b []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("load panicked: %v", r)
		}
	}()
	return load(ctx)
}
