// WRONG: the TTL passed as time.Duration(ttl.Seconds()) — 3 ns, which go-redis sends as PX 1: the key lives 1 ms, not 3 s

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
	rdb.Set(ctx, key, v, time.Duration(ttl.Seconds())) // Redis TTLs are in seconds
	return v, nil
}
