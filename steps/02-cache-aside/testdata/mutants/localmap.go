// localmap: caches in a map in the process, not in Redis: not shared by the API's instances, and nothing is in Redis
// vi: cache trong một map của process, không phải trong Redis: các instance của API không dùng chung được, còn Redis thì trống trơn

//go:build !solution

package main

import (
	"context"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

type entry struct {
	value   []byte
	expires time.Time
}

var (
	mu    sync.Mutex
	local = map[string]entry{}
)

func GetOrSet(ctx context.Context, rdb *redis.Client, key string, ttl time.Duration,
	load func(context.Context) ([]byte, error)) ([]byte, error) {
	mu.Lock()
	e, ok := local[key]
	mu.Unlock()
	if ok && time.Now().Before(e.expires) {
		return e.value, nil
	}
	value, err := load(ctx)
	if err != nil {
		return nil, err
	}
	mu.Lock()
	local[key] = entry{value, time.Now().Add(ttl)}
	mu.Unlock()
	return value, nil
}
