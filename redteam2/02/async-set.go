// WRONG: the SET runs in a goroutine on the request's ctx (fire and forget): the handler returns, ctx is cancelled, the SET may never land, so the second read may still miss

//go:build !solution

package main

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/peakload/workshop/internal/given/redisconn"
)

func GetOrSet(ctx context.Context, rdb *redis.Client, key string, ttl time.Duration,
	load func(context.Context) ([]byte, error)) ([]byte, error) {
	b, err := rdb.Get(ctx, key).Bytes()
	if err == nil {
		return b, nil
	}
	if !errors.Is(err, redis.Nil) {
		redisconn.FailOpen(err)
		return load(ctx)
	}
	v, err := load(ctx)
	if err != nil {
		return nil, err
	}
	// Do not make the viewer wait for the SET.
	go rdb.Set(ctx, key, v, ttl)
	return v, nil
}
