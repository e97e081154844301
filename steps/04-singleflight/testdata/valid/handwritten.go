// handwritten: a hand-written map of in-flight calls under a mutex (what singleflight does inside): one load per key in flight, forgotten when it returns
// vi: một map tự viết các lượt gọi đang chạy dưới một mutex (đúng cái singleflight làm bên trong): mỗi key một lượt load đang chạy, bị quên khi nó trả về

//go:build !solution

package main

import (
	"context"
	"fmt"
	"sync"
	"time"
)

type call struct {
	done  chan struct{}
	value []byte
	err   error
}

// Group coalesces concurrent loads of the same key.
type Group struct {
	mu    sync.Mutex
	calls map[string]*call
}

// Load runs load once for all concurrent callers of key and gives each the result.
func (g *Group) Load(ctx context.Context, key string, load func(context.Context) ([]byte, error)) ([]byte, error) {
	g.mu.Lock()
	if g.calls == nil {
		g.calls = map[string]*call{}
	}
	c, ok := g.calls[key]
	if !ok {
		c = &call{done: make(chan struct{})}
		g.calls[key] = c
		go func() {
			lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			defer cancel()
			c.value, c.err = safely(lctx, load)
			g.mu.Lock()
			delete(g.calls, key)
			g.mu.Unlock()
			close(c.done)
		}()
	}
	g.mu.Unlock()
	select {
	case <-c.done:
		return c.value, c.err
	case <-ctx.Done():
		return nil, ctx.Err()
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
