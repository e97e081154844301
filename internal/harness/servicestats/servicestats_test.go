package servicestats

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/peakload/workshop/internal/given/catalog"
	"github.com/peakload/workshop/internal/harness/proc"
	"github.com/peakload/workshop/internal/harness/stack"
	"github.com/peakload/workshop/internal/harness/stacktest"
)

// Between two readings, the counters move by exactly the work another
// client did: n statements, n GETs and their reply bytes, n insert round
// trips — the readings' own commands and bytes, and the change worker's
// statement, left out.
func TestTwoReadingsDifferByTheOtherClientsWorkAlone(t *testing.T) {
	stacktest.SkipShort(t, stack.Postgres)
	stacktest.SkipShort(t, stack.Redis)
	stacktest.SkipShort(t, stack.Mongo)
	ctx := t.Context()
	pool, rdb, eps := stacktest.Postgres(t), stacktest.Redis(t), stacktest.Endpoints(t)
	// Not Events: counting a big events collection takes FerretDB minutes,
	// and the windows must be short (see quiet).
	r, err := Open(ctx, os.Getpid(), eps, Uses{Postgres: true, Redis: true, Mongo: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	value := strings.Repeat("x", 1000)
	if err := rdb.Set(ctx, "servicestats:test", value, 0).Err(); err != nil {
		t.Fatal(err)
	}
	mc, err := mongo.Connect(options.Client().ApplyURI(eps.MongoURL))
	if err != nil {
		t.Fatal(err)
	}
	defer mc.Disconnect(context.Background())
	coll := mc.Database("servicestats_test").Collection("t")
	if _, err := coll.InsertOne(ctx, bson.D{{Key: "warm", Value: 1}}); err != nil { // the driver's handshake, before the window
		t.Fatal(err)
	}
	for round := range 3 { // the second and third windows: after a reading's own work
		before := quiet(t, r)
		const n = 7
		// The bench's change worker runs beside an original: its statement
		// is not the server's (pg_stat_statements keeps it with its
		// constants as $n, so it is matched by its first line).
		if err := catalog.UpdateStats(ctx, pool, []int32{1}); err != nil {
			t.Fatal(err)
		}
		for range n {
			if _, err := pool.Exec(ctx, "SELECT 1"); err != nil {
				t.Fatal(err)
			}
			if err := rdb.Get(ctx, "servicestats:test").Err(); err != nil {
				t.Fatal(err)
			}
			if _, err := coll.InsertOne(ctx, bson.D{{Key: "round", Value: round}}); err != nil {
				t.Fatal(err)
			}
		}
		after, err := r.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		reply := float64(bulkLen(value))
		for _, c := range []struct {
			key  string
			want float64
		}{
			{"peakload_db_queries_total", n},
			{"peakload_redis_commands_total", n},
			{"peakload_redis_commands_total{cmd=get}", n},
			{"peakload_redis_read_bytes_total", n * reply},
			{"peakload_redis_written_bytes_total", n * float64(len(resp("get", "servicestats:test")))},
			{"peakload_mongo_commands_total{cmd=insert}", n},
		} {
			if got := proc.Delta(before, after, c.key); got != c.want {
				t.Errorf("window %d: %s moved by %v for %d requests of another client, want %v", round+1, c.key, got, n, c.want)
			}
		}
	}
}

// quietKeys are the counters another client's work moves.
var quietKeys = []string{"peakload_db_queries_total", "peakload_redis_commands_total", "peakload_mongo_commands_total"}

// quiet returns a reading once two in a row show no client at work: the
// services are the whole test run's, and a server an earlier package's
// test stopped may still be writing what it accepted (it flushes on
// SIGTERM), which a window here would count as the other client's. The
// readings are milliseconds apart, so a window that starts quiet stays
// the test's alone. The limit is a watchdog, no verdict on the reader.
func quiet(t *testing.T, r *Reader) proc.Counters {
	t.Helper()
	const limit = 2 * time.Minute
	var moved []string
	for start, prev := time.Now(), proc.Counters(nil); time.Since(start) < limit; time.Sleep(100 * time.Millisecond) {
		c, err := r.Read(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		moved = moved[:0]
		for _, k := range quietKeys {
			if prev == nil || c[k] != prev[k] {
				moved = append(moved, fmt.Sprintf("%s +%v", k, proc.Delta(prev, c, k)))
			}
		}
		if len(moved) == 0 {
			return c
		}
		prev = c
	}
	t.Fatalf("for %v another client kept using the services (last: %s): this test counts one client's work, and the services were never quiet; no verdict on the reader", limit, strings.Join(moved, ", "))
	return nil
}
