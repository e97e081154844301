// getstring: reads the hit with Result (a string) and converts it: a copy of the same bytes, and a load that fails returns before anything is stored
// vi: đọc cache hit bằng Result (một string) rồi chuyển kiểu: một bản sao của cùng các byte, và lượt load fail trả về trước khi lưu gì

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
	if err == nil {
		return []byte(s), nil
	}
	if !errors.Is(err, redis.Nil) {
		redisconn.FailOpen(err)
		return load(ctx)
	}
	value, err := load(ctx)
	if err != nil {
		return nil, err
	}
	if err := rdb.Set(ctx, key, string(value), ttl).Err(); err != nil {
		redisconn.FailOpen(err)
	}
	return value, nil
}
