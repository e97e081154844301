// getbudget: a 100 ms budget made for the GET is passed on to load: a slow Redis uses it up, and the fail-open database read starts past its deadline
// vi: budget 100 ms dành cho GET bị truyền tiếp sang load: Redis chậm là tiêu hết budget đó, và lượt đọc database khi fail open bắt đầu lúc đã quá deadline

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
	// A cache must be fast: give the whole lookup a budget.
	ctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	b, err := rdb.Get(ctx, key).Bytes()
	if err == nil {
		return b, nil
	}
	if !errors.Is(err, redis.Nil) {
		redisconn.FailOpen(err)
		return load(ctx)
	}
	v, err := load(ctx)
	if err != nil {
		return nil, err
	}
	rdb.Set(ctx, key, v, ttl)
	return v, nil
}
