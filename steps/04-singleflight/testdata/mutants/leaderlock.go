// leaderlock: a map of calls in flight whose first caller runs the load while still holding the Group's one lock: one slow item holds the misses of every other item, and no waiter can give up
// vi: một map các lượt gọi đang chạy, trong đó caller đầu tiên chạy lượt load mà vẫn giữ lock duy nhất của Group: một item chậm chặn lượt miss của mọi item khác, và không caller nào đang chờ bỏ cuộc được

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
	if c, ok := g.calls[key]; ok {
		g.mu.Unlock()
		select {
		case <-c.done:
			return c.value, c.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if g.calls == nil {
		g.calls = map[string]*call{}
	}
	c := &call{done: make(chan struct{})}
	g.calls[key] = c
	defer g.mu.Unlock()
	lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	c.value, c.err = safely(lctx, load)
	delete(g.calls, key)
	close(c.done)
	return c.value, c.err
}

func safely(ctx context.Context, load func(context.Context) ([]byte, error)) (b []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("load panicked: %v", r)
		}
	}()
	return load(ctx)
}
