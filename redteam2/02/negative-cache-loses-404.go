// WRONG: a negative cache that answers a cached miss with a fresh errors.New, not catalog.ErrNotFound: the second read of an unknown id is a 500, not a 404

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

const notFoundMark = "\x00404"

func GetOrSet(ctx context.Context, rdb *redis.Client, key string, ttl time.Duration,
	load func(context.Context) ([]byte, error)) ([]byte, error) {
	b, err := rdb.Get(ctx, key).Bytes()
	if err == nil {
		if string(b) == notFoundMark {
			return nil, errors.New(key + ": not found")
		}
		return b, nil
	}
	if !errors.Is(err, redis.Nil) {
		redisconn.FailOpen(err)
		return load(ctx)
	}
	v, err := load(ctx)
	if errors.Is(err, catalog.ErrNotFound) {
		rdb.Set(ctx, key, notFoundMark, ttl) // remember misses too: bots probe ids
		return nil, err
	}
	if err != nil {
		return nil, err
	}
	rdb.Set(ctx, key, v, ttl)
	return v, nil
}
