// setpx: stores with a raw SET key value PX ms: the same command go-redis sends for a sub-second ttl
// vi: lưu bằng lệnh SET key value PX ms thô: đúng lệnh go-redis gửi với ttl dưới một giây

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
	cached, err := rdb.Get(ctx, key).Bytes()
	switch {
	case err == nil:
		return cached, nil
	case !errors.Is(err, redis.Nil):
		redisconn.FailOpen(err)
		return load(ctx)
	}
	value, err := load(ctx)
	if err != nil {
		return nil, err
	}
	if err := rdb.Do(ctx, "SET", key, value, "PX", ttl.Milliseconds()).Err(); err != nil {
		redisconn.FailOpen(err)
	}
	return value, nil
}
