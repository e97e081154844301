// negativeempty: caches an empty value for an id the database does not have, to spare the next query: the second read of an unknown id is a 200 with an empty body
// vi: cache một giá trị rỗng cho id mà database không có, để khỏi truy vấn lần sau: lượt đọc thứ hai của một id không tồn tại là 200 với body rỗng

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
	if err != nil && !errors.Is(err, catalog.ErrNotFound) {
		return nil, err
	}
	// Remember "not there" too, so an unknown id costs one query per TTL.
	if err := rdb.Set(ctx, key, value, ttl).Err(); err != nil {
		redisconn.FailOpen(err)
	}
	return value, err
}
