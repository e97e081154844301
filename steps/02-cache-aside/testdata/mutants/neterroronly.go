// neterroronly: fails open only on a net.Error (refused, timed out, a deadline): a Redis that answers -LOADING or -BUSY, a full pool (a plain error) or a connection dropped under the GET (io.EOF) turns the read into a 500
// vi: chỉ fail open khi gặp net.Error (bị từ chối, timeout, deadline): Redis trả -LOADING hay -BUSY, pool đầy (một lỗi trơn) hay connection bị rớt giữa GET (io.EOF) biến lượt đọc thành 500

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
		var ne net.Error
		if !errors.As(err, &ne) {
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
