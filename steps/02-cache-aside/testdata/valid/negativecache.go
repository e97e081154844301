// negativecache: remembers an unknown id for a short while with a marker no item can be, and answers that marker with ErrNotFound: an unknown id costs one query per second and is still a 404
// vi: nhớ một id không tồn tại trong một lúc bằng một giá trị đánh dấu mà không item thật nào có, và trả ErrNotFound khi gặp nó: một id không tồn tại tốn một truy vấn mỗi giây và vẫn là 404

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

// notFound is no JSON document, so no item can be stored as it.
const notFound = "\x00not-found"

func GetOrSet(ctx context.Context, rdb *redis.Client, key string, ttl time.Duration,
	load func(context.Context) ([]byte, error)) ([]byte, error) {
	cached, err := rdb.Get(ctx, key).Bytes()
	switch {
	case err == nil && string(cached) == notFound:
		return nil, catalog.ErrNotFound
	case err == nil:
		return cached, nil
	case !errors.Is(err, redis.Nil):
		redisconn.FailOpen(err)
		return load(ctx)
	}
	value, err := load(ctx)
	if errors.Is(err, catalog.ErrNotFound) {
		rdb.Set(ctx, key, notFound, min(ttl, time.Second))
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
