// timeoutcause: WithTimeoutCause and a typed result: the same DoChan, select and recover, written differently
// vi: WithTimeoutCause và một kết quả có kiểu: vẫn DoChan, select và recover, viết theo cách khác

//go:build !solution

package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"golang.org/x/sync/singleflight"
)

// Group coalesces concurrent loads of the same key.
type Group struct {
	flights singleflight.Group
}

// Load runs load once for all concurrent callers of key and gives each the result.
func (g *Group) Load(ctx context.Context, key string, load func(context.Context) ([]byte, error)) ([]byte, error) {
	ch := g.flights.DoChan(key, func() (any, error) {
		lctx, cancel := context.WithTimeoutCause(context.WithoutCancel(ctx), 3*time.Second, errSlowLoad)
		defer cancel()
		return safely(lctx, load)
	})
	select {
	case res := <-ch:
		b, _ := res.Val.([]byte)
		return b, res.Err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

var errSlowLoad = errors.New("the shared load took longer than 3s")

func safely(ctx context.Context, load func(context.Context) ([]byte, error)) (b []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("load panicked: %v", r)
		}
	}()
	return load(ctx)
}
