// Package replica is what one replica of step 10 holds, given to the
// learner: the step-5 read path (memory for the burst TTL, then Redis, then
// PostgreSQL) and the write that changes an item. Several replicas run as
// separate processes behind a load balancer; each has its own memory tier,
// and that is the whole problem of the step: a change written through one
// replica leaves the others serving their copy until it expires.
//
// Step 10 is cumulative: a replica is steps 4 and 5's techniques stacked
// on step 2's read path (internal/given/readpath). Their answers are
// parameters (Memory, Flight), passed in by the step's main.go, as readpath
// takes its own: given code imports no answer (TestOnlyStepsImportAnswers).
package replica

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/peakload/workshop/internal/given/catalog"
	"github.com/peakload/workshop/internal/given/metrics"
	"github.com/peakload/workshop/internal/given/readpath"
	"github.com/peakload/workshop/internal/given/server"
)

// Memory is the in-process tier, step 5's answer: an item read through
// next is kept for the burst TTL, and Forget drops it at once.
type Memory interface {
	Get(ctx context.Context, id int32, next server.Getter) ([]byte, error)
	Forget(id int32)
}

// Flight is step 4's answer: concurrent loads of one key share a single
// call of load.
type Flight func(ctx context.Context, key string, load func(context.Context) ([]byte, error)) ([]byte, error)

// Channel is the Redis pub/sub channel on which a replica announces the
// items it changed: one message per change, the item id in decimal.
const Channel = "items:changed"

// Replica is one server process's tiers.
type Replica struct {
	Name   string
	Store  *catalog.Store
	Redis  *redis.Client
	Memory Memory
	redis  func(ctx context.Context, id int32) ([]byte, error) // step 4: Redis, one flight per miss
}

// New builds a replica whose memory is memory (step 5's) and whose Redis
// misses go through flight (step 4's), Redis keeping an item redisTTL.
func New(name string, store *catalog.Store, rdb *redis.Client, redisTTL time.Duration, memory Memory, flight Flight) *Replica {
	return &Replica{Name: name, Store: store, Redis: rdb, Memory: memory,
		redis: readpath.Via(store, rdb, redisTTL, flight)}
}

// Get reads an item as step 5 did: memory, then Redis, then PostgreSQL.
func (r *Replica) Get(ctx context.Context, id int32) ([]byte, error) {
	return r.Memory.Get(ctx, id, r.redis)
}

// Write changes the item's live stats in PostgreSQL, then deletes its Redis
// key, in that order: a reader that misses after the delete loads the
// committed row. When Write returns, the database and Redis are fresh;
// every replica's memory, this one's included, still holds the old copy.
func (r *Replica) Write(ctx context.Context, id int32) error {
	n, err := catalog.ChangeStats(ctx, r.Store.Pool, []int32{id})
	if err != nil {
		return fmt.Errorf("change item %d: %w", id, err)
	}
	if n == 0 {
		return fmt.Errorf("change item %d: %w", id, catalog.ErrNotFound)
	}
	if err := r.Redis.Del(ctx, catalog.ItemKey(id)).Err(); err != nil {
		return fmt.Errorf("change item %d: drop its Redis key: %w", id, err)
	}
	metrics.ItemChanges.Inc()
	return nil
}
