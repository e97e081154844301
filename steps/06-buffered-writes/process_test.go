package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/peakload/workshop/internal/given/events"
	"github.com/peakload/workshop/internal/harness/config"
	"github.com/peakload/workshop/internal/harness/drill"
	"github.com/peakload/workshop/internal/harness/proc"
	"github.com/peakload/workshop/internal/harness/result"
	"github.com/peakload/workshop/internal/harness/stacktest"
)

// These checks run the step as a real process against a private MongoDB,
// kill and restart things under load, and count what was stored: the
// drill of `make step-6 drill` (internal/harness/drill), asserted.

// privateMongo starts a MongoDB server of the test's own (internal/harness/drill:
// FerretDB on a fresh PostgreSQL database, or SQLite files), killed at the end.
func privateMongo(t *testing.T) *drill.Mongo {
	t.Helper()
	name := "test_06_" + strings.ToLower(strings.TrimPrefix(t.Name(), "Test"))
	c, err := config.FromEnv() // the stack's ports and state directory, as the CLI reads them
	if err != nil {
		t.Fatal(err)
	}
	m, err := drill.StartMongo(context.Background(), c.Stack, name, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	return m
}

// serveEnv asks this test binary to be the step's server instead of
// running tests: it holds the code under test (your exercise, the reference
// under SOLUTION=1, or the gate's variant), so nothing is built again.
const serveEnv = "PEAKLOAD_STEP06_SERVE"

func TestMain(m *testing.M) {
	if os.Getenv(serveEnv) == "1" {
		main() // returns after a clean shutdown; a failed flush exits 1 inside
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// stepServer returns how the drill starts this step's server (this test
// binary, re-run as the server) against a MongoDB URL.
func stepServer(t *testing.T) func(ctx context.Context, mongoURL string) (*proc.Proc, error) {
	t.Helper()
	bin, err := os.Executable()
	if err != nil {
		t.Fatalf("find the test binary to run as the server: %v", err)
	}
	dir := t.TempDir()
	return func(ctx context.Context, mongoURL string) (*proc.Proc, error) {
		return proc.StartServer(ctx, bin, []string{serveEnv + "=1", "PEAKLOAD_MONGO_URL=" + mongoURL}, result.CPUPlan{}, filepath.Join(dir, "server.log"))
	}
}

// writeDrill is `make step-6 drill` with the events counted in the database.
func writeDrill(t *testing.T, killMongo bool, poison *drill.Poison) drill.Report {
	t.Helper()
	mongo := privateMongo(t)
	d := drill.Writes{
		Mongo: mongo, Server: stepServer(t), Clients: 20, Phase: 1500 * time.Millisecond, KillMongo: killMongo, Idempotent: true, Poison: poison,
		Request: func(*rand.Rand) (string, string, string) { return "POST", "/events/bulk", event },
		Persisted: func(ctx context.Context, url string) (int64, error) {
			store, err := events.Open(ctx, url)
			if err != nil {
				return 0, err
			}
			defer store.Close(context.Background())
			return store.Count(ctx)
		},
	}
	rep, err := d.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	rep.Print(&b)
	t.Log("\n" + b.String())
	return rep
}

// SIGTERM in the middle of the load: everything the server acknowledged is
// in the database once it has exited.
func TestSIGTERMUnderLoadLosesNothing(t *testing.T) {
	stacktest.SkipShort(t, "MongoDB and the step's server process")
	if rep := writeDrill(t, false, nil); !rep.OK() {
		t.Fatalf("accepted %d events, %d persisted after SIGTERM (other 5xx: %d)", rep.Accepted, rep.Persisted, rep.ServerErrors)
	}
}

// MongoDB killed and restarted in the middle of the load, then SIGTERM: the
// batcher retries, and everything acknowledged is stored in the end.
func TestMongoRestartUnderLoadLosesNothing(t *testing.T) {
	stacktest.SkipShort(t, "MongoDB and the step's server process")
	rep := writeDrill(t, true, nil)
	if !rep.OK() {
		t.Fatalf("accepted %d events, %d persisted after a MongoDB restart (other 5xx: %d)", rep.Accepted, rep.Persisted, rep.ServerErrors)
	}
	fmt.Fprintf(os.Stderr, "restart check: %d events accepted and persisted\n", rep.Accepted)
}

// Poison events under load — each order sent twice, a unique index on the
// order: the second copy is refused for good — then SIGTERM: the refused
// ones are dead-lettered (not retried), the rest persisted, and the server
// exits 0, not at its shutdown deadline with events unwritten (exit 1).
func TestPoisonEventsUnderLoadAreSetAside(t *testing.T) {
	stacktest.SkipShort(t, "MongoDB and the step's server process")
	const orders = 30
	rep := writeDrill(t, false, &drill.Poison{Orders: orders, Route: "/events/bulk"})
	switch {
	case rep.DeadLettered != orders:
		t.Fatalf("%d orders sent twice (one checkout per order): %d dead letters stored, want %d — a refusal for good must be set aside once",
			orders, rep.DeadLettered, orders)
	case !rep.OK():
		t.Fatalf("accepted %d, persisted %d + dead-lettered %d (other 5xx: %d): want accepted = persisted + dead-lettered",
			rep.Accepted, rep.Persisted, rep.DeadLettered, rep.ServerErrors)
	}
	// The server exited 0 (the drill fails otherwise: Proc.Wait reports the
	// exit status), so its flush did not run into the shutdown deadline.
	t.Logf("set aside after %s, drained in %s", rep.SetAside.Round(time.Millisecond), rep.Drain.Round(time.Millisecond))
}
