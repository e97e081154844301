package stack

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/peakload/workshop/internal/given/catalog"
	"github.com/peakload/workshop/internal/given/params"
)

// Seed creates and loads the catalogue at url (skipped when present).
func Seed(ctx context.Context, url string) error {
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

// DownStarted stops what a run started, and only that: services the
// learner had up before stay up.
func DownStarted(sc Config, started []string) error {
	if len(started) == 0 {
		return nil
	}
	return Down(sc, started...)
}

// GoTest runs `go test` with the stack's endpoints in the environment.
func GoTest(ctx context.Context, sc Config, withSolution bool, pkgs ...string) error {
	args := []string{"test", "-count=1"}
	if withSolution {
		args = append(args, "-tags", "solution")
	}
	cmd := exec.CommandContext(ctx, "go", append(args, pkgs...)...)
	cmd.Env = TestEnv(sc)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	return cmd.Run()
}

// TestEnv is the environment a `go test` with services runs in: this
// process's, plus the stack's endpoints (internal/harness/stacktest reads them).
func TestEnv(sc Config) []string {
	return append(append(os.Environ(), sc.Endpoints().Env()...), "PEAKLOAD_MONGO_BIN="+filepath.Join(sc.Dir, "bin", "mongo"))
}

// UpSeeded starts every service and seeds the catalogue; started is what
// it started, for the caller to stop, even when it fails half-way.
func UpSeeded(ctx context.Context, sc Config) (started []string, err error) {
	if started, err = Up(ctx, sc); err != nil {
		return started, err
	}
	return started, Seed(ctx, sc.Endpoints().PostgresURL)
}
