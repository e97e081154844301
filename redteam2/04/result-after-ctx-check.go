// WRONG: a caller whose ctx is done only checks it after the result arrives (no select): a caller that gives up waits for the whole load

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

type result struct {
	v   []byte
	err error
}

func (g *Group) Load(ctx context.Context, key string, load func(context.Context) ([]byte, error)) ([]byte, error) {
	ch := make(chan result, 1)
	go func() {
		v, err, _ := g.flights.Do(key, func() (any, error) { return run(ctx, load) })
		b, _ := v.([]byte)
		ch <- result{b, err}
	}()
	r := <-ch
	if err := ctx.Err(); err != nil {
		return nil, err // the caller gave up meanwhile
	}
	return r.v, r.err
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
