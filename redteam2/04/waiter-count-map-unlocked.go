// WRONG: a map of waiters per key for logging, updated without a lock from every caller: a data race that corrupts the map under concurrent keys

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
	waiting map[string]int // how many callers wait on each key, for the logs
}

func (g *Group) Load(ctx context.Context, key string, load func(context.Context) ([]byte, error)) ([]byte, error) {
	if g.waiting == nil {
		g.waiting = map[string]int{}
	}
	g.waiting[key]++
	defer func() {
		if g.waiting[key]--; g.waiting[key] == 0 {
			delete(g.waiting, key)
		}
	}()
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
