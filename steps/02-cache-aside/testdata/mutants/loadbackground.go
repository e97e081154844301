// loadbackground: loads with context.Background() so that a client hanging up does not waste the query: the request's deadline never reaches PostgreSQL
// vi: load với context.Background() để client bỏ đi thì truy vấn không bị phí: deadline của request không bao giờ tới được PostgreSQL
//go:build !solution

package main

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

func GetOrSet(ctx context.Context, rdb *redis.Client, key string, ttl time.Duration,
	load func(context.Context) ([]byte, error)) ([]byte, error) {
	cached, err := rdb.Get(ctx, key).Bytes()
	switch {
	case err == nil:
		return cached, nil
	case !errors.Is(err, redis.Nil):
		return load(context.Background())
	}
	value, err := load(context.Background())
	if err != nil {
		return nil, err
	}
	rdb.Set(ctx, key, value, ttl)
	return value, nil
}
