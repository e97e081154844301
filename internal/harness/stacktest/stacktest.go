// Package stacktest gives tests the real services of internal/harness/stack. `make
// test` and `make step-N check` start them and pass their addresses in the
// environment; a test run without them fails with the command to fix it
// rather than skipping, so a green run always means the databases were used.
//
// The one exception is asked for: under `go test -short` every test that
// needs a service skips, saying which, so the service-free tests run in a
// second with nothing started. `make step-N check` runs them so first.
package stacktest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"

	"github.com/peakload/workshop/internal/given/catalog"
	"github.com/peakload/workshop/internal/given/dbaddr"
	"github.com/peakload/workshop/internal/given/redisconn"
	"github.com/peakload/workshop/internal/given/serverenv"
	"github.com/peakload/workshop/internal/harness/course"
)

// Endpoints returns the addresses of the running stack, as a step server
// reads them (serverenv); a bad value in the environment fails t, naming it.
func Endpoints(t testing.TB) dbaddr.Endpoints {
	t.Helper()
	c, err := serverenv.Load()
	if err != nil {
		t.Fatal(err)
	}
	return c.DB
}

// SkipShort skips t under -short: it needs service (PostgreSQL, Redis,
// MongoDB). Every function here calls it first; a test that reaches a
// service another way calls it itself.
//
// In a step's check it first fails a test its step does not list in
// course.Step.ServiceTests: `make step-N check` runs the listed tests in
// its second pass, with the services, and every other one in its first,
// without; an unlisted test that needs a service would skip there and
// never run at all.
func SkipShort(t testing.TB, service string) {
	t.Helper()
	if step, ok := stepOf(); ok && !step.Needs(t.Name()) {
		t.Fatalf("%s needs %s, but step %d's entry in internal/harness/course/steps.go does not list it in ServiceTests: "+
			"`make step-%d check` would never run it with the services. Add it there.", t.Name(), service, step.N, step.N)
	}
	if testing.Short() {
		t.Skipf("needs %s: skipped under -short (make step-N check runs it after the service-free tests pass)", service)
	}
}

// stepOf is the step whose check this test binary is: go test runs it in
// the package's directory, steps/NN-slug.
func stepOf() (course.Step, bool) {
	wd, err := os.Getwd()
	if err != nil || filepath.Base(filepath.Dir(wd)) != "steps" {
		return course.Step{}, false
	}
	for _, s := range course.All() {
		if filepath.Base(s.Dir()) == filepath.Base(wd) {
			return s, true
		}
	}
	return course.Step{}, false
}

// Postgres returns a pool on the seeded catalogue, closed when t ends.
func Postgres(t testing.TB) *pgxpool.Pool {
	t.Helper()
	SkipShort(t, "PostgreSQL")
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	pool, err := pgxpool.New(ctx, Endpoints(t).PostgresURL)
	if err == nil {
		err = pool.Ping(ctx)
	}
	if err != nil {
		t.Fatalf("PostgreSQL is not reachable at %s: %v\n(run `make up` first, or use `make test` / `make step-N check`, which start it)", Endpoints(t).PostgresURL, err)
	}
	var seeded bool
	_ = pool.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM catalog_meta)").Scan(&seeded)
	if !seeded {
		t.Fatalf("the catalogue is not seeded: run `make seed`")
	}
	t.Cleanup(pool.Close)
	return pool
}

// Redis returns a counted client (internal/given/redisconn) on the stack's
// Redis, closed when t ends.
func Redis(t testing.TB) *redis.Client {
	t.Helper()
	SkipShort(t, "Redis")
	rdb := redisconn.New(Endpoints(t).RedisAddr)
	// Pinged through a patient client: the step's 100 ms read timeout,
	// met on a loaded machine, does not mean Redis is not there.
	ping := redisconn.Patient(Endpoints(t).RedisAddr, 10*time.Second)
	defer ping.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	if err := ping.Ping(ctx).Err(); err != nil {
		t.Fatalf("Redis is not reachable at %s: %v\n(run `make up` first, or use `make test` / `make step-N check`, which start it)", Endpoints(t).RedisAddr, err)
	}
	// Then the client itself, so its first connection (the handshake) is
	// behind the test: a few tries, as its read timeout is short.
	for try := 0; try < 5 && rdb.Ping(ctx).Err() != nil; try++ {
	}
	t.Cleanup(func() { rdb.Close() })
	return rdb
}

// Store opens the catalogue the way step servers do (queries counted).
func Store(t testing.TB) *catalog.Store {
	t.Helper()
	Postgres(t)
	s, err := catalog.Open(context.Background(), Endpoints(t).PostgresURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}
