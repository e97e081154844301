// negativenull: caches the JSON null for an unknown id and serves it on the next read: a 200 "null" instead of the 404
// vi: cache JSON null cho id không tồn tại và trả nó ở lượt đọc sau: 200 "null" thay vì 404

//go:build !solution

package main

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/peakload/workshop/internal/given/catalog"
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
	if errors.Is(err, catalog.ErrNotFound) {
		rdb.Set(ctx, key, "null", ttl) // a negative entry: nothing there
		return nil, err
	}
	if err != nil {
		return nil, err
	}
	if err := rdb.Set(ctx, key, value, ttl).Err(); err != nil {
		redisconn.FailOpen(err)
	}
	return value, nil
}
