// sharedbuffer: reads every hit into one package-level buffer to save an allocation: concurrent reads of distinct ids get each other's bytes
// vi: đọc mọi cache hit vào một buffer cấp package cho đỡ một lần cấp phát: các lượt đọc đồng thời của những id khác nhau nhận nhầm byte của nhau

//go:build !solution

package main

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/peakload/workshop/internal/given/redisconn"
)

var buf []byte // reused by every read

func GetOrSet(ctx context.Context, rdb *redis.Client, key string, ttl time.Duration,
	load func(context.Context) ([]byte, error)) ([]byte, error) {
	cached, err := rdb.Get(ctx, key).Bytes()
	switch {
	case err == nil:
		buf = append(buf[:0], cached...)
		return buf, nil
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
