// WRONG: the load's timeout context is made (and its cancel deferred) in Load, by the caller that starts the flight: when that caller returns or gives up, cancel() ends the shared load for every other waiter

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
	lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	ch := g.flights.DoChan(key, func() (v any, err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("load panicked: %v", r)
			}
		}()
		return load(lctx)
	})
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
