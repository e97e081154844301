// WRONG: recover() is called inside a helper the deferred func calls, where it returns nil: a panic in load is not recovered and DoChan re-panics it, crashing the process

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
	lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	defer func() { err = panicToError(err) }()
	return load(lctx)
}

// panicToError turns a panic in flight into an error.
func panicToError(err error) error {
	if r := recover(); r != nil {
		return fmt.Errorf("load panicked: %v", r)
	}
	return err
}
