// replyisanswer: passes Redis's error replies (LOADING, BUSY, MASTERDOWN …) on to the caller as its answer and fails open only when the connection fails: a Redis that is starting or busy turns every read into a 500
// vi: chuyển error reply của Redis (LOADING, BUSY, MASTERDOWN …) cho caller làm câu trả lời và chỉ fail open khi connection hỏng: Redis đang khởi động hay đang bận biến mọi lượt đọc thành 500

//go:build !solution

package main

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/peakload/workshop/internal/given/redisconn"
)

func GetOrSet(ctx context.Context, rdb *redis.Client, key string, ttl time.Duration,
	load func(context.Context) ([]byte, error)) ([]byte, error) {
	cached, err := rdb.Get(ctx, key).Bytes()
	switch {
	case err == nil:
		return cached, nil
	case errors.Is(err, redis.Nil):
	default:
		var reply redis.Error
		if errors.As(err, &reply) {
			return nil, err // Redis is up and said no: its answer is the answer
		}
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
