package main

import (
	"context"
	"fmt"
	"os"

	"github.com/peakload/workshop/internal/balancer"
	"github.com/peakload/workshop/internal/cli"
	"github.com/peakload/workshop/internal/stack"
)

func runUp(ctx context.Context, cfg cli.Config, args []string) error {
	c := cfg.Stack
	kind, why := c.Choice()
	fmt.Fprintf(os.Stderr, "stack: %s — %s\n", kind, why)
	if _, err := stack.Up(ctx, c, args...); err != nil {
		return err
	}
	for _, s := range args {
		if s == stack.Postgres {
			return runSeed(ctx, cfg, nil)
		}
	}
	if len(args) == 0 {
		return runSeed(ctx, cfg, nil)
	}
	return nil
}

func runDown(_ context.Context, cfg cli.Config, args []string) error {
	c := cfg.Stack
	// Step 10's replicas and HAProxy die with the bench; a bench killed
	// with SIGKILL may leave them, and their pid files say where.
	for _, s := range balancer.StopLeftovers(c.Dir) {
		fmt.Fprintf(os.Stderr, "stopped %s, left by a step-10 bench\n", s)
	}
	return stack.Down(c, args...)
}

// runSeed loads the catalogue into the stack's PostgreSQL (once).
func runSeed(ctx context.Context, cfg cli.Config, _ []string) error {
	return cli.Seed(ctx, cfg.Stack.Endpoints().PostgresURL)
}
