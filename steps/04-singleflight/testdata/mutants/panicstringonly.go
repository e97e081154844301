// panicstringonly: turns a recovered panic into an error only when its value is a string: a load that panics with an error value (panic(err)) comes back as (nil, nil), a 200 with an empty body
// vi: chỉ biến panic đã recover thành lỗi khi giá trị của nó là string: lượt load panic với một giá trị error (panic(err)) trả về (nil, nil), một 200 với body rỗng
//go:build !solution

package main

import (
	"context"
	"errors"
	"time"

	"golang.org/x/sync/singleflight"
)

// Group coalesces concurrent loads of the same key.
type Group struct {
	flights singleflight.Group
}

func (g *Group) Load(ctx context.Context, key string, load func(context.Context) ([]byte, error)) ([]byte, error) {
	ch := g.flights.DoChan(key, func() (v any, err error) {
		defer func() {
			if r := recover(); r != nil {
				if s, ok := r.(string); ok {
					err = errors.New("load panicked: " + s)
				}
			}
		}()
		lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		return load(lctx)
	})
	select {
	case res := <-ch:
		b, _ := res.Val.([]byte)
		return b, res.Err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
