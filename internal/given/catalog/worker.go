package catalog

import (
	"context"
	"log"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Worker is article A's background worker: every Interval it rewrites the
// live stats of the given items in one statement, as a background process
// would. On the bench's clock (×100) the pace article A gives for its data's
// changes, "about once a minute", is 600 ms.
type Worker struct {
	Pool     *pgxpool.Pool
	IDs      []int32
	Interval time.Duration
}

// UpdateStats changes the stats of ids once: new viewer, like and comment
// counts and updated_at = now(). Every cached copy of these items is stale
// from here on.
func UpdateStats(ctx context.Context, pool *pgxpool.Pool, ids []int32) error {
	_, err := ChangeStats(ctx, pool, ids)
	return err
}

// ChangeStats is UpdateStats that says how many items it changed (step 10
// answers 404 for an id that is not in the catalogue).
func ChangeStats(ctx context.Context, pool *pgxpool.Pool, ids []int32) (int64, error) {
	tag, err := pool.Exec(ctx, ChangeSQL, ids)
	return tag.RowsAffected(), err
}

// ChangeSQL is the worker's one statement: counting a server's statements
// at PostgreSQL (internal/harness/servicestats), the worker's are not the server's.
const ChangeSQL = `UPDATE live_stats
		SET viewers = greatest(0, viewers + (random() * 40)::int - 20),
		    likes = likes + (random() * 10)::int + 1,
		    comments = comments + (random() * 3)::int,
		    updated_at = clock_timestamp()
		WHERE item_id = ANY($1)`

// Run updates until ctx ends. Errors are retried on the next tick: a worker
// that stops on a blip would freeze the "live" data. They are logged, at
// most once per errorEvery with how many were not, because a worker failing
// silently freezes the data just the same: step 3's ETags then never change.
func (w Worker) Run(ctx context.Context) {
	t := time.NewTicker(w.Interval)
	defer t.Stop()
	var errs errorLog
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := UpdateStats(ctx, w.Pool, w.IDs); err != nil && ctx.Err() == nil {
				errs.log(time.Now(), err)
			}
		}
	}
}

// errorEvery is the worker's longest silence about a failing update.
const errorEvery = 5 * time.Second

// errorLog logs the first error, then at most one per errorEvery with the
// count of those it kept quiet about.
type errorLog struct {
	last    time.Time
	skipped int
	printf  func(format string, args ...any) // log.Printf when nil
}

func (l *errorLog) log(now time.Time, err error) {
	if !l.last.IsZero() && now.Sub(l.last) < errorEvery {
		l.skipped++
		return
	}
	printf := l.printf
	if printf == nil {
		printf = log.Printf
	}
	if l.skipped > 0 {
		printf("worker: updating the live stats failed: %v (and %d more times since the last report)", err, l.skipped)
	} else {
		printf("worker: updating the live stats failed: %v", err)
	}
	l.last, l.skipped = now, 0
}
