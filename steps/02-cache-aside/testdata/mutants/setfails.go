// setfails: returns the SET error: the item was loaded, yet the client gets a 500
// vi: trả lỗi của SET: item đã load xong, vậy mà client nhận 500

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
	if err := rdb.Set(ctx, key, value, ttl).Err(); err != nil {
		return nil, err
	}
	return value, nil
}
