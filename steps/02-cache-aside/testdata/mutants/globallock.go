// globallock: one mutex around the whole GetOrSet, to spare the database a stampede: a slow load of one id holds up the misses and hits of every other id
// vi: một mutex bọc cả GetOrSet, để database khỏi bị stampede: một lượt load chậm của một id chặn cả miss lẫn hit của mọi id khác

//go:build !solution

package main

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/peakload/workshop/internal/given/redisconn"
)

var mu sync.Mutex

func GetOrSet(ctx context.Context, rdb *redis.Client, key string, ttl time.Duration,
	load func(context.Context) ([]byte, error)) ([]byte, error) {
	mu.Lock()
	defer mu.Unlock()
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
		redisconn.FailOpen(err)
	}
	return value, nil
}
