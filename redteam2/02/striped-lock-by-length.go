// WRONG: lock striping by len(key) to tame the stampede: ids of the same length share a lock, so one slow load holds up the miss of another id

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

var stripes [16]sync.Mutex

func GetOrSet(ctx context.Context, rdb *redis.Client, key string, ttl time.Duration,
	load func(context.Context) ([]byte, error)) ([]byte, error) {
	b, err := rdb.Get(ctx, key).Bytes()
	if err == nil {
		return b, nil
	}
	if !errors.Is(err, redis.Nil) {
		redisconn.FailOpen(err)
		return load(ctx)
	}
	mu := &stripes[len(key)%len(stripes)]
	mu.Lock()
	defer mu.Unlock()
	if b, err := rdb.Get(ctx, key).Bytes(); err == nil {
		return b, nil // filled while we waited
	}
	v, err := load(ctx)
	if err != nil {
		return nil, err
	}
	rdb.Set(ctx, key, v, ttl)
	return v, nil
}
