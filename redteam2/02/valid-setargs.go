// valid: SetArgs with an explicit TTL and the string form of GET, converted to bytes

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
	_ = rdb.SetArgs(ctx, key, v, redis.SetArgs{TTL: ttl}).Err()
	return v, nil
}
