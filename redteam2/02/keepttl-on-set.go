// WRONG: SET with KeepTTL (to "not reset the clock" of a key a concurrent miss just filled): on a missing key there is no TTL to keep, so the key never expires

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
	s, err := rdb.Get(ctx, key).Result()
	switch {
	case err == nil:
		return []byte(s), nil
	case !errors.Is(err, redis.Nil):
		redisconn.FailOpen(err)
		return load(ctx)
	}
	v, err := load(ctx)
	if err != nil {
		return nil, err
	}
	_ = rdb.SetArgs(ctx, key, v, redis.SetArgs{KeepTTL: true}).Err()
	_ = ttl
	return v, nil
}
