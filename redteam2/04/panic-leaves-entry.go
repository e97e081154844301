// WRONG: hand-made flights whose map entry is removed after the load returns, not in a defer: a load that panics is recovered and its waiters get the error, but the key stays in flight for ever and every later caller gets that old error

//go:build !solution

package main

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// Group coalesces concurrent loads of the same key.
type Group struct {
	mu    sync.Mutex
	calls map[string]*call
}

type call struct {
	done chan struct{}
	v    []byte
	err  error
}

func (g *Group) Load(ctx context.Context, key string, load func(context.Context) ([]byte, error)) ([]byte, error) {
	g.mu.Lock()
	c, ok := g.calls[key]
	if !ok {
		if g.calls == nil {
			g.calls = map[string]*call{}
		}
		c = &call{done: make(chan struct{})}
		g.calls[key] = c
		go g.run(ctx, key, c, load)
	}
	g.mu.Unlock()
	select {
	case <-c.done:
		return c.v, c.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (g *Group) run(ctx context.Context, key string, c *call, load func(context.Context) ([]byte, error)) {
	defer func() {
		if r := recover(); r != nil {
			c.v, c.err = nil, fmt.Errorf("load of %s panicked: %v", key, r)
			close(c.done)
		}
	}()
	lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	c.v, c.err = load(lctx)
	g.mu.Lock()
	delete(g.calls, key)
	g.mu.Unlock()
	close(c.done)
}
