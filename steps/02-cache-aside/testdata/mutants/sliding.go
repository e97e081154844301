// sliding: GETEX refreshes the TTL on every hit: a hot item never expires and its data never changes
// vi: GETEX làm mới TTL ở mỗi cache hit: item nóng không bao giờ hết hạn và dữ liệu của nó không bao giờ đổi

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
	cached, err := rdb.GetEx(ctx, key, ttl).Bytes()
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
	if err := rdb.Set(ctx, key, value, ttl).Err(); err != nil {
		redisconn.FailOpen(err)
	}
	return value, nil
}
