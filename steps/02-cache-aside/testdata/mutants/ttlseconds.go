// ttlseconds: reads the ttl as seconds (ttl*time.Second): the 3 s TTL becomes 95 years
// vi: đọc ttl như số giây (ttl*time.Second): TTL 3 s thành 95 năm

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
	if err := rdb.Set(ctx, key, value, ttl*time.Second).Err(); err != nil {
		redisconn.FailOpen(err)
	}
	return value, nil
}
