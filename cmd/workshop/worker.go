package main

import (
	"context"
	"fmt"
	"os"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/peakload/workshop/internal/given/catalog"
	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/harness/config"
	"github.com/peakload/workshop/internal/harness/scenario"
)

// runWorker is `workshop worker`: the live-stats worker alone, until
// stopped — the articles' cron jobs for a step server started by someone
// else (the Compose bench profile runs it in a container of its own).
func runWorker(ctx context.Context, cfg config.Config, _ []string) error {
	pool, err := pgxpool.New(ctx, cfg.Stack.Named.PostgresURL)
	if err != nil {
		return fmt.Errorf("worker: %w", err)
	}
	defer pool.Close()
	p := params.Load()
	ids := scenario.Env{Params: p}.Skew().HotIDs()
	fmt.Fprint(os.Stderr, messages.T("worker.start", len(ids), p.Scaled(p.Clock.ChangeS)))
	catalog.Worker{Pool: pool, IDs: ids, Interval: p.Scaled(p.Clock.ChangeS)}.Run(ctx)
	return nil
}
