// racymap: a hand-written map of in-flight calls with no lock: fine one caller at a time, "concurrent map writes" under a stampede
// vi: một map tự viết các lượt gọi đang chạy, không có lock: một caller một lúc thì ổn, gặp stampede thì "concurrent map writes"

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
	calls map[string]*call
}

// Load runs load once for all concurrent callers of key and gives each the result.
func (g *Group) Load(ctx context.Context, key string, load func(context.Context) ([]byte, error)) ([]byte, error) {
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
			delete(g.calls, key)
			close(c.done)
		}()
	}
	select {
	case <-c.done:
		return c.value, c.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

var _ sync.Locker // the lock this Group forgot

func safely(ctx context.Context, load func(context.Context) ([]byte, error)) (b []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("load panicked: %v", r)
		}
	}()
	return load(ctx)
}
