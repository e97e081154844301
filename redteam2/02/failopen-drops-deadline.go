// WRONG: fail-open load runs on context.WithoutCancel(ctx): the trace id survives but the request's deadline does not reach PostgreSQL

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
	b, err := rdb.Get(ctx, key).Bytes()
	if err == nil {
		return b, nil
	}
	if !errors.Is(err, redis.Nil) {
		redisconn.FailOpen(err)
		// Redis may have used up the request's deadline: the database
		// read must not inherit that failure.
		return load(context.WithoutCancel(ctx))
	}
	v, err := load(ctx)
	if err != nil {
		return nil, err
	}
	rdb.Set(ctx, key, v, ttl)
	return v, nil
}
