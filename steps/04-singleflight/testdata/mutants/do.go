// do: singleflight.Do: callers wait for the load whatever their ctx says — a client that gave up is still held
// vi: singleflight.Do: caller chờ lượt load bất kể ctx của nó nói gì — client đã bỏ cuộc vẫn bị giữ lại

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

// Load runs load once for all concurrent callers of key and gives each the result.
func (g *Group) Load(ctx context.Context, key string, load func(context.Context) ([]byte, error)) ([]byte, error) {
	v, err, _ := g.flights.Do(key, func() (any, error) {
		lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		return safely(lctx, load)
	})
	if err != nil {
		return nil, err
	}
	return v.([]byte), nil
}

func safely(ctx context.Context, load func(context.Context) ([]byte, error)) (b []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("load panicked: %v", r)
		}
	}()
	return load(ctx)
}
