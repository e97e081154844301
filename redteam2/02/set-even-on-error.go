// WRONG: a hit with a zero-length value is taken as a miss marker and loaded again, and an empty cached body is never refreshed: it also caches an empty load result

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
	if err == nil && len(b) > 0 {
		return b, nil
	}
	if err != nil && !errors.Is(err, redis.Nil) {
		redisconn.FailOpen(err)
		return load(ctx)
	}
	v, err := load(ctx)
	// Keep the slot warm even if the load failed: an empty value is a miss next time.
	rdb.Set(ctx, key, v, ttl)
	return v, err
}
