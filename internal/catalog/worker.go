package catalog

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Worker is the article's cron job: every Interval it rewrites the live
// stats of the given items in one statement, as a background process would.
// On the bench's clock (×100) the articles' "about once a minute" is 600 ms.
type Worker struct {
	Pool     *pgxpool.Pool
	IDs      []int32
	Interval time.Duration
}

// UpdateStats changes the stats of ids once: new viewer, like and comment
// counts and updated_at = now(). Every cached copy of these items is stale
// from here on.
func UpdateStats(ctx context.Context, pool *pgxpool.Pool, ids []int32) error {
	_, err := pool.Exec(ctx, `UPDATE live_stats
		SET viewers = greatest(0, viewers + (random() * 40)::int - 20),
		    likes = likes + (random() * 10)::int + 1,
		    comments = comments + (random() * 3)::int,
		    updated_at = clock_timestamp()
		WHERE item_id = ANY($1)`, ids)
	return err
}

// Run updates until ctx ends. Errors are retried on the next tick: a worker
// that stops on a blip would freeze the "live" data.
func (w Worker) Run(ctx context.Context) {
	t := time.NewTicker(w.Interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			_ = UpdateStats(ctx, w.Pool, w.IDs)
		}
	}
}
