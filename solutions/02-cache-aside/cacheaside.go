// Package cacheaside is the reference for step 2: Redis get-or-set (article
// A2). Read Redis first; on a miss load from the database, store the result
// with a TTL, return it. If Redis is down or slow, serve from the database:
// the cache must never turn into an outage of its own (fail open).
package cacheaside

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/peakload/workshop/internal/given/redisconn"
)

// GetOrSet returns the value cached under key, or loads it, caches it for
// ttl and returns it.
func GetOrSet(ctx context.Context, rdb *redis.Client, key string, ttl time.Duration,
	load func(context.Context) ([]byte, error)) ([]byte, error) {
	cached, err := rdb.Get(ctx, key).Bytes()
	switch {
	case err == nil:
		return cached, nil
	case !errors.Is(err, redis.Nil):
		redisconn.FailOpen(err) // down or slow: fall through to the database
		return load(ctx)
	}

	value, err := load(ctx)
	if err != nil {
		return nil, err // never cache an error
	}
	// A failed SET costs a future miss, not this response.
	if err := rdb.Set(ctx, key, value, ttl).Err(); err != nil {
		redisconn.FailOpen(err)
	}
	return value, nil
}
