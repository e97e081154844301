// setex: stores with SetEx (SETEX, whole seconds): right, since the TTL of hit ratios is a whole 3 s (it would round a sub-second TTL up, which the check names)
// vi: lưu bằng SetEx (SETEX, giây chẵn): đúng, vì TTL dùng cho hit ratio là 3 s chẵn (nó sẽ làm tròn lên một TTL dưới một giây, và check có nói điều đó)

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
	if err := rdb.SetEx(ctx, key, value, ttl).Err(); err != nil {
		redisconn.FailOpen(err)
	}
	return value, nil
}
