// WRONG: the load's error is wrapped with %v, not %w: errors.Is(err, catalog.ErrNotFound) fails and a 404 becomes a 500

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
			return nil, fmt.Errorf("load %s: %v", key, res.Err)
		}
		return res.Val.([]byte), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// run is the shared load: on no caller's cancellation, with a deadline of its own.
func run(ctx context.Context, load func(context.Context) ([]byte, error)) (v []byte, err error) {
	lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("load panicked: %v", r)
		}
	}()
	return load(lctx)
}
