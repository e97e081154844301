// WRONG: a failed SET is 'retried' by loading and setting again: a -OOM/-READONLY Redis costs two queries per read instead of one

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
	for attempt := 0; ; attempt++ {
		v, err := load(ctx)
		if err != nil {
			return nil, err
		}
		if err := rdb.Set(ctx, key, v, ttl).Err(); err == nil || attempt == 1 {
			return v, nil
		}
	}
}
