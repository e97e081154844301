// expireseconds: SET without a TTL, then EXPIRE with ttl/time.Second (3ns, which go-redis rounds up to 1 s): the 3 s TTL becomes 1 s
// vi: SET không có TTL, rồi EXPIRE với ttl/time.Second (3ns, go-redis làm tròn lên 1 s): TTL 3 s thành 1 s
//go:build !solution

package main

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

func GetOrSet(ctx context.Context, rdb *redis.Client, key string, ttl time.Duration,
	load func(context.Context) ([]byte, error)) ([]byte, error) {
	cached, err := rdb.Get(ctx, key).Bytes()
	switch {
	case err == nil:
		return cached, nil
	case !errors.Is(err, redis.Nil):
		return load(ctx)
	}
	value, err := load(ctx)
	if err != nil {
		return nil, err
	}
	rdb.Set(ctx, key, value, 0)
	rdb.Expire(ctx, key, ttl/time.Second)
	return value, nil
}
