// WRONG: a circuit breaker that opens on the first Redis failure and never closes: after one blip every read goes to PostgreSQL for the life of the process

//go:build !solution

package main

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/peakload/workshop/internal/given/redisconn"
)

// redisDown skips Redis while it is failing, so a dead cache costs no timeouts.
var redisDown atomic.Bool

func GetOrSet(ctx context.Context, rdb *redis.Client, key string, ttl time.Duration,
	load func(context.Context) ([]byte, error)) ([]byte, error) {
	if redisDown.Load() {
		return load(ctx)
	}
	s, err := rdb.Get(ctx, key).Result()
	switch {
	case err == nil:
		return []byte(s), nil
	case !errors.Is(err, redis.Nil):
		redisconn.FailOpen(err)
		redisDown.Store(true)
		return load(ctx)
	}
	v, err := load(ctx)
	if err != nil {
		return nil, err
	}
	_ = rdb.SetArgs(ctx, key, v, redis.SetArgs{TTL: ttl}).Err()
	return v, nil
}
