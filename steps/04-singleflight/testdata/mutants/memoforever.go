// memoforever: coalesces, and keeps every successful result: a cache with no TTL — the item never changes again (the bench would print 0 queries per expiry)
// vi: có gộp, và giữ mọi kết quả thành công: một cache không có TTL — item không bao giờ đổi nữa (bench sẽ in 0 truy vấn mỗi lần hết hạn)

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
	done    map[string][]byte
}

// Load runs load once for all concurrent callers of key and gives each the result.
func (g *Group) Load(ctx context.Context, key string, load func(context.Context) ([]byte, error)) ([]byte, error) {
	g.mu.Lock()
	b, ok := g.done[key]
	g.mu.Unlock()
	if ok {
		return b, nil
	}
	ch := g.flights.DoChan(key, func() (any, error) {
		lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		return safely(lctx, load)
	})
	select {
	case res := <-ch:
		if res.Err != nil {
			return nil, res.Err
		}
		g.mu.Lock()
		if g.done == nil {
			g.done = map[string][]byte{}
		}
		g.done[key] = res.Val.([]byte)
		g.mu.Unlock()
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
