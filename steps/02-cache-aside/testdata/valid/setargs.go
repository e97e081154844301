// setargs: stores with SetArgs{TTL}: the same SET … PX
// vi: lưu bằng SetArgs{TTL}: vẫn là SET … PX

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
	if err := rdb.SetArgs(ctx, key, value, redis.SetArgs{TTL: ttl}).Err(); err != nil {
		redisconn.FailOpen(err)
	}
	return value, nil
}
