// WRONG: the detached context is given the first caller's own deadline (WithDeadline(WithoutCancel(ctx), ctx.Deadline())): when the caller that started it reaches its deadline the shared load dies for everyone

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
	ch := g.flights.DoChan(key, func() (any, error) { return run(ctx, load) })
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

func run(ctx context.Context, load func(context.Context) ([]byte, error)) (v []byte, err error) {
	// Keep the budget the request was given, only not its cancellation.
	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = time.Now().Add(5 * time.Second)
	}
	lctx, cancel := context.WithDeadline(context.WithoutCancel(ctx), deadline)
	defer cancel()
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("load panicked: %v", r)
		}
	}()
	return load(lctx)
}
