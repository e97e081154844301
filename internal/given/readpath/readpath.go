// Package readpath holds the read paths of an item through Redis that steps
// 2 to 5 and 10 serve: cache-aside around a get-or-set (step 2's exercise,
// passed in), and cache-aside whose misses go through a wrapper (step 4's
// flight). Both count Redis hits and misses, which the benches read. They
// are given code: the answers they run are parameters, so each step passes
// its own exercise or an earlier step's answer and nothing here is copied
// into solutions/.
package readpath

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/peakload/workshop/internal/given/catalog"
	"github.com/peakload/workshop/internal/given/metrics"
	"github.com/peakload/workshop/internal/given/redisconn"
	"github.com/peakload/workshop/internal/given/server"
)

// GetOrSet is the shape of step 2's exercise: the value cached under key,
// or load's, cached for ttl.
type GetOrSet func(ctx context.Context, rdb *redis.Client, key string, ttl time.Duration,
	load func(context.Context) ([]byte, error)) ([]byte, error)

// Items reads items through Redis with getOrSet: the cache-aside Getter of
// steps 2 to 5. A read that did not call load was a hit (the bench's hit
// ratio).
func Items(store *catalog.Store, rdb *redis.Client, ttl time.Duration, getOrSet GetOrSet) server.Getter {
	return func(ctx context.Context, id int32) ([]byte, error) {
		loaded := false
		body, err := getOrSet(ctx, rdb, catalog.ItemKey(id), ttl, func(ctx context.Context) ([]byte, error) {
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

// Via is cache-aside whose misses go through wrap (step 4 makes the
// concurrent misses of a key one flight). A hit is served from Redis as
// before; a miss calls wrap with a fill that looks in Redis once more — a
// request that missed while another refilled the key finds it there — and
// only then loads from the database and sets the key. A caller whose fill
// did not run shared another caller's load: metrics.Coalesced counts it
// (the bench's coalesced share), whatever wrap is.
func Via(store *catalog.Store, rdb *redis.Client, ttl time.Duration,
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
