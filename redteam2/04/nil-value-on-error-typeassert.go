// WRONG: the result is read with res.Val.([]byte) before the error is looked at; a panic recovered as an error leaves Val a nil interface, and the type assertion panics in every waiter

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

func (g *Group) Load(ctx context.Context, key string, load func(context.Context) ([]byte, error)) ([]byte, error) {
	ch := g.flights.DoChan(key, func() (v any, err error) {
		lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		defer func() {
			if r := recover(); r != nil {
				v, err = nil, fmt.Errorf("load panicked: %v", r)
			}
		}()
		return load(lctx)
	})
	select {
	case res := <-ch:
		return res.Val.([]byte), res.Err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
