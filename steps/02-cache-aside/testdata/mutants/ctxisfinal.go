// ctxisfinal: returns a context error from GET as the read's answer without calling load: Redis failed the read, and the request never reaches PostgreSQL, which answers for its context
// vi: GET trả lỗi context thì lấy luôn lỗi đó làm câu trả lời của lượt đọc, không gọi load: lỗi là của Redis, còn request thì không bao giờ tới được PostgreSQL — nơi lẽ ra phải trả lời theo context của nó

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
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return nil, err // the client is gone: do not bother the database
	default:
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
