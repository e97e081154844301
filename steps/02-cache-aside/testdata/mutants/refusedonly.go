// refusedonly: fails open only when Redis refuses the connection: a Redis that is up but slow (timeouts) turns every read into a 500
// vi: chỉ fail open khi Redis từ chối connection: Redis vẫn sống nhưng chậm (timeout) biến mọi lượt đọc thành 500
//go:build !solution

package main

import (
	"context"
	"errors"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"
)

func GetOrSet(ctx context.Context, rdb *redis.Client, key string, ttl time.Duration,
	load func(context.Context) ([]byte, error)) ([]byte, error) {
	cached, err := rdb.Get(ctx, key).Bytes()
	switch {
	case err == nil:
		return cached, nil
	case errors.Is(err, syscall.ECONNREFUSED):
		return load(ctx)
	case !errors.Is(err, redis.Nil):
		return nil, err
	}
	value, err := load(ctx)
	if err != nil {
		return nil, err
	}
	rdb.Set(ctx, key, value, ttl)
	return value, nil
}
