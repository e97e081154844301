// knownclasses: fails open on the failures it knows, network errors and Redis's error replies, and returns the others: a full pool (a plain error) or a connection dropped under the GET (io.EOF) turns the read into a 500
// vi: fail open với những lỗi nó biết, lỗi mạng và error reply của Redis, còn lại thì trả lỗi: pool đầy (một lỗi trơn) hay connection bị rớt giữa GET (io.EOF) biến lượt đọc thành 500

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
		var reply redis.Error
		if !errors.As(err, &ne) && !errors.As(err, &reply) {
			return nil, err // neither: not a failure of Redis we know
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
