// valid: SetNX instead of Set — a concurrent filler's identical bytes are kept, TTL exact (PX), everything else as the reference

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
	if errors.Is(err, redis.Nil) {
		v, lerr := load(ctx)
		if lerr != nil {
			return nil, lerr
		}
		if serr := rdb.SetNX(ctx, key, v, ttl).Err(); serr != nil {
			redisconn.FailOpen(serr)
		}
		return v, nil
	}
	if err != nil {
		redisconn.FailOpen(err)
		return load(ctx)
	}
	return b, nil
}
