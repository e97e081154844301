// operroronly: fails open only on a *net.OpError, as a refused connection is: a Redis that stops answering (go-redis reports its timeout unwrapped), answers -LOADING or -BUSY, or whose pool is full turns the read into a 500
// vi: chỉ fail open khi gặp *net.OpError, như lúc connection bị từ chối: Redis ngừng trả lời (go-redis trả timeout của nó không bọc), trả -LOADING hay -BUSY, hay có pool đầy đều biến lượt đọc thành 500

//go:build !solution

package main

import (
	"context"
	"errors"
	"net"
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
	case errors.Is(err, redis.Nil):
	default:
		var op *net.OpError
		if !errors.As(err, &op) {
			return nil, err // not a network error: Redis answered, pass it on
		}
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
