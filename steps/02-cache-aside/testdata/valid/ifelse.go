// ifelse: an if/else chain instead of a switch, and no metrics: the same three outcomes
// vi: một chuỗi if/else thay vì switch, và không có metrics: cùng ba kết cục

//go:build !solution

package main

import (
	"context"
	"errors"
	"log"
	"time"

	"github.com/redis/go-redis/v9"
)

func GetOrSet(ctx context.Context, rdb *redis.Client, key string, ttl time.Duration,
	load func(context.Context) ([]byte, error)) ([]byte, error) {
	cached, err := rdb.Get(ctx, key).Bytes()
	if err == nil {
		return cached, nil
	}
	if !errors.Is(err, redis.Nil) {
		log.Printf("redis get %s: %v (reading the database)", key, err)
		return load(ctx)
	}
	value, err := load(ctx)
	if err != nil {
		return nil, err
	}
	if serr := rdb.Set(ctx, key, value, ttl).Err(); serr != nil {
		log.Printf("redis set %s: %v", key, serr)
	}
	return value, nil
}
