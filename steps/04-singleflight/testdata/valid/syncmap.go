// syncmap: calls in flight kept in a sync.Map (LoadOrStore claims a key), the load in a goroutine of its own, and the error wrapped with %w: errors.Is still sees the load's error
// vi: các lượt gọi đang chạy giữ trong một sync.Map (LoadOrStore giành một key), lượt load trong goroutine riêng, và lỗi được bọc bằng %w: errors.Is vẫn thấy lỗi của lượt load

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
	calls sync.Map // key → *call
}

// Load runs load once for all concurrent callers of key and gives each the result.
func (g *Group) Load(ctx context.Context, key string, load func(context.Context) ([]byte, error)) ([]byte, error) {
	mine := &call{done: make(chan struct{})}
	v, loaded := g.calls.LoadOrStore(key, mine)
	c := v.(*call)
	if !loaded {
		go func() {
			defer close(c.done)
			defer g.calls.CompareAndDelete(key, c) // before done closes: a later caller starts afresh
			lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
			defer cancel()
			c.value, c.err = safely(lctx, load)
		}()
	}
	select {
	case <-c.done:
		if c.err != nil {
			return nil, fmt.Errorf("coalesced load of %s: %w", key, c.err)
		}
		return c.value, nil
	case <-ctx.Done():
		return nil, context.Cause(ctx)
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
