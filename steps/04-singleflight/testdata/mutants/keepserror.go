// keepserror: keeps the last result of a key, error included, for a second: a failed load fails every read of that item until then
// vi: giữ kết quả cuối của một key, kể cả lỗi, trong một giây: một lượt load lỗi làm fail mọi lượt đọc item đó cho tới lúc ấy

//go:build !solution

package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// Group coalesces concurrent loads of the same key.
type Group struct {
	flights singleflight.Group
	mu      sync.Mutex
	failed  map[string]error
}

// Load runs load once for all concurrent callers of key and gives each the result.
func (g *Group) Load(ctx context.Context, key string, load func(context.Context) ([]byte, error)) ([]byte, error) {
	g.mu.Lock()
	err, failed := g.failed[key]
	g.mu.Unlock()
	if failed {
		return nil, err
	}
	ch := g.flights.DoChan(key, func() (any, error) {
		lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		return safely(lctx, load)
	})
	select {
	case res := <-ch:
		if res.Err != nil {
			g.mu.Lock()
			if g.failed == nil {
				g.failed = map[string]error{}
			}
			g.failed[key] = res.Err
			g.mu.Unlock()
			time.AfterFunc(time.Second, func() { g.mu.Lock(); delete(g.failed, key); g.mu.Unlock() })
			return nil, res.Err
		}
		return res.Val.([]byte), nil
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
