// psetex: stores with SET then PEXPIRE in one MULTI: millisecond TTL, atomic
// vi: lưu bằng SET rồi PEXPIRE trong một MULTI: TTL theo millisecond, atomic

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
	if _, err := rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, key, value, 0)
		p.PExpire(ctx, key, ttl)
		return nil
	}); err != nil {
		redisconn.FailOpen(err)
	}
	return value, nil
}
