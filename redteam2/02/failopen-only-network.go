// WRONG: fails open only on network errors (net.Error, io.EOF); a Redis error reply (-LOADING, -BUSY, -WRONGTYPE) is returned as a 500

//go:build !solution

package main

import (
	"context"
	"errors"
	"io"
	"net"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/peakload/workshop/internal/given/redisconn"
)

func GetOrSet(ctx context.Context, rdb *redis.Client, key string, ttl time.Duration,
	load func(context.Context) ([]byte, error)) ([]byte, error) {
	b, err := rdb.Get(ctx, key).Bytes()
	var ne net.Error
	switch {
	case err == nil:
		return b, nil
	case errors.As(err, &ne) || errors.Is(err, io.EOF) || errors.Is(err, redis.ErrClosed) ||
		errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled):
		redisconn.FailOpen(err)
		return load(ctx)
	case !errors.Is(err, redis.Nil):
		return nil, err // Redis answered: it is up, so this is a real error
	}
	v, err := load(ctx)
	if err != nil {
		return nil, err
	}
	rdb.Set(ctx, key, v, ttl)
	return v, nil
}
