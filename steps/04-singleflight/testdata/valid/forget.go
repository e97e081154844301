// forget: Do in a goroutine of its own plus Forget after an error: the same sharing as DoChan, written with the blocking call
// vi: gọi Do trong một goroutine riêng, thêm Forget khi có lỗi: chia sẻ kết quả y như DoChan, chỉ là viết bằng lời gọi chặn

//go:build !solution

package main

import (
	"context"
	"fmt"
	"time"

	"golang.org/x/sync/singleflight"
)

// Group coalesces concurrent loads of the same key.
type Group struct {
	flights singleflight.Group
}

// Load runs load once for all concurrent callers of key and gives each the result.
func (g *Group) Load(ctx context.Context, key string, load func(context.Context) ([]byte, error)) ([]byte, error) {
	ch := make(chan singleflight.Result, 1)
	go func() {
		v, err, shared := g.flights.Do(key, func() (any, error) {
			lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			defer cancel()
			return safely(lctx, load)
		})
		if err != nil {
			g.flights.Forget(key)
		}
		ch <- singleflight.Result{Val: v, Err: err, Shared: shared}
	}()
	select {
	case res := <-ch:
		if res.Err != nil {
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
