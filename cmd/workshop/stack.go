package main

import (
	"context"
	"fmt"
	"os"
	"slices"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/balancer"
	"github.com/peakload/workshop/internal/harness/config"
	"github.com/peakload/workshop/internal/harness/stack"
)

func runUp(ctx context.Context, cfg config.Config, args []string) error {
	c := cfg.Stack
	kind, why := c.Choice()
	fmt.Fprint(os.Stderr, messages.T("cli.stack", kind, why))
	if _, err := stack.Up(ctx, c, args...); err != nil {
		return err
	}
	if len(args) > 0 && !slices.Contains(args, stack.Postgres) {
		return nil
	}
	if err := runSeed(ctx, cfg, nil); err != nil {
		return err
	}
	// The lessons' psql commands use the default port; this is the one in
	// use (PEAKLOAD_PG_PORT moves it).
	fmt.Fprint(os.Stderr, messages.T("up.psql", c.Endpoints().PostgresURL))
	return nil
}

func runDown(_ context.Context, cfg config.Config, args []string) error {
	c := cfg.Stack
	// Step 10's replicas and HAProxy die with the bench; a bench killed
	// with SIGKILL may leave them, and their pid files say where.
	for _, s := range balancer.StopLeftovers(c.Dir) {
		fmt.Fprint(os.Stderr, messages.T("down.leftover", s))
	}
	return stack.Down(c, args...)
}

// runSeed loads the catalogue into the stack's PostgreSQL (once).
func runSeed(ctx context.Context, cfg config.Config, _ []string) error {
	return stack.Seed(ctx, cfg.Stack.Endpoints().PostgresURL)
}
