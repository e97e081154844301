// Package cacheaside is the reference for step 2: Redis get-or-set (article
// A2). Read Redis first; on a miss load from the database, store the result
// with a TTL, return it. If Redis is down or slow, serve from the database:
// the cache must never turn into an outage of its own (fail open).
package cacheaside

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/peakload/workshop/internal/catalog"
	"github.com/peakload/workshop/internal/metrics"
	"github.com/peakload/workshop/internal/redisconn"
	"github.com/peakload/workshop/internal/server"
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

// Items reads items through Redis: the cache-aside Getter of steps 2 and 3.
// A read that did not call load was a hit (the bench's hit ratio).
func Items(store *catalog.Store, rdb *redis.Client, ttl time.Duration) server.Getter {
	return func(ctx context.Context, id int32) ([]byte, error) {
		loaded := false
		body, err := GetOrSet(ctx, rdb, catalog.ItemKey(id), ttl, func(ctx context.Context) ([]byte, error) {
			loaded = true
			return store.ItemJSON(ctx, id)
		})
		result := "hit"
		if loaded {
			result = "miss"
		}
		metrics.CacheLookups.WithLabelValues("redis", result).Inc()
		return body, err
	}
}

// ItemsVia is cache-aside whose misses go through wrap (step 4 makes the
// concurrent misses of a key one flight). A hit is served from Redis as
// before; a miss calls wrap with a fill that looks in Redis once more — a
// request that missed while another refilled the key finds it there — and
// only then loads from the database and sets the key. A caller whose fill
// did not run shared another caller's load: metrics.Coalesced counts it
// (the bench's coalesced share), whatever wrap is.
func ItemsVia(store *catalog.Store, rdb *redis.Client, ttl time.Duration,
	wrap func(ctx context.Context, key string, fill func(context.Context) ([]byte, error)) ([]byte, error)) server.Getter {
	return func(ctx context.Context, id int32) ([]byte, error) {
		key := catalog.ItemKey(id)
		cached, err := rdb.Get(ctx, key).Bytes()
		switch {
		case err == nil:
			metrics.CacheLookups.WithLabelValues("redis", "hit").Inc()
			return cached, nil
		case errors.Is(err, redis.Nil):
			metrics.CacheLookups.WithLabelValues("redis", "miss").Inc()
		default:
			redisconn.FailOpen(err) // the flight still spares the database a stampede
		}
		var ran atomic.Bool // the fill may run in another goroutine (DoChan)
		body, err := wrap(ctx, key, func(ctx context.Context) ([]byte, error) {
			ran.Store(true)
			if again, err := rdb.Get(ctx, key).Bytes(); err == nil {
				return again, nil
			}
			value, err := store.ItemJSON(ctx, id)
			if err != nil {
				return nil, err
			}
			if err := rdb.Set(ctx, key, value, ttl).Err(); err != nil {
				redisconn.FailOpen(err)
			}
			return value, nil
		})
		if err == nil && !ran.Load() {
			metrics.Coalesced.Inc() // served by someone else's load
		}
		return body, err
	}
}
