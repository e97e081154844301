// budgetonce: the load's timeout is one context made once for every load (a sync.Once, 5 s): every load started after the first five seconds begins past its deadline, and each miss fails at once
// vi: timeout của lượt load là một context tạo một lần cho mọi lượt load (một sync.Once, 5 s): mọi lượt load bắt đầu sau năm giây đầu đều đã quá deadline, và lượt miss nào cũng fail ngay

//go:build !solution

package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// Group coalesces concurrent loads of the same key.
type Group struct {
	flights singleflight.Group
}

var (
	budgetOnce sync.Once
	budget     context.Context
)

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
	select {
	case r := <-ch:
		return r.v, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// run is the shared load: on no caller's cancellation, with a deadline of its own.
func run(ctx context.Context, load func(context.Context) ([]byte, error)) (v []byte, err error) {
	budgetOnce.Do(func() { budget, _ = context.WithTimeout(context.Background(), 5*time.Second) })
	lctx, cancel := context.WithCancel(budget)
	defer cancel()
	lctx = valuesOf{lctx, ctx}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("load panicked: %v", r)
		}
	}()
	return load(lctx)
}

// valuesOf keeps the caller's values on the shared budget's context.
type valuesOf struct {
	context.Context
	values context.Context
}

func (v valuesOf) Value(k any) any { return v.values.Value(k) }
