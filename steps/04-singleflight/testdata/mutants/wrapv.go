// wrapv: wraps the load's error with %v: every caller gets an error, but not one errors.Is can recognise, so an unknown id is a 500 instead of a 404
// vi: bọc lỗi của lượt load bằng %v: caller nào cũng nhận lỗi, nhưng không phải lỗi mà errors.Is nhận ra được, nên id không tồn tại thành 500 thay vì 404

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
	ch := g.flights.DoChan(key, func() (any, error) {
		lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		return safely(lctx, load)
	})
	select {
	case res := <-ch:
		if res.Err != nil {
			return nil, fmt.Errorf("load %s: %v", key, res.Err)
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
