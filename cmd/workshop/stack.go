package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/peakload/workshop/internal/balancer"
	"github.com/peakload/workshop/internal/catalog"
	"github.com/peakload/workshop/internal/params"
	"github.com/peakload/workshop/internal/stack"
)

func runUp(ctx context.Context, args []string) error {
	c := stack.FromEnv()
	kind, why := c.Choice()
	fmt.Fprintf(os.Stderr, "stack: %s — %s\n", kind, why)
	if _, err := stack.Up(ctx, c, args...); err != nil {
		return err
	}
	for _, s := range args {
		if s == stack.Postgres {
			return runSeed(ctx)
		}
	}
	if len(args) == 0 {
		return runSeed(ctx)
	}
	return nil
}

func runDown(args []string) error {
	c := stack.FromEnv()
	// Step 10's replicas and HAProxy die with the bench; a bench killed
	// with SIGKILL may leave them, and their pid files say where.
	for _, s := range balancer.StopLeftovers(c.Dir) {
		fmt.Fprintf(os.Stderr, "stopped %s, left by a step-10 bench\n", s)
	}
	return stack.Down(c, args...)
}

// runSeed loads the catalogue into the stack's PostgreSQL (once).
func runSeed(ctx context.Context) error {
	return seed(ctx, stack.FromEnv().Endpoints().PostgresURL)
}

func seed(ctx context.Context, url string) error {
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	defer pool.Close()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	return catalog.Seed(ctx, pool, catalog.SizeFor(params.Load().Catalog.Items), func(f string, a ...any) {
		fmt.Fprintf(os.Stderr, f+"\n", a...)
	})
}
