// WRONG: Do in a goroutine of its own that sends on an unbuffered channel: when the caller gives up nobody receives, and that goroutine is left blocked forever

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
	ch := make(chan result)
	go func() {
		v, err, _ := g.flights.Do(key, func() (any, error) { return run(ctx, load) })
		b, _ := v.([]byte)
		ch <- result{b, err}
	}()
	select {
	case r := <-ch:
		return r.v, r.err
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
