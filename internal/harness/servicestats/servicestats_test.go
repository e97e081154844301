package servicestats

import (
	"context"
	"os"
	"strings"
	"testing"

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
	r, err := Open(ctx, os.Getpid(), eps, Uses{Postgres: true, Redis: true, Mongo: true, Events: true})
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
		before, err := r.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
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
		d := func(k string) float64 { return proc.Delta(before, after, k) }
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
			if got := d(c.key); got != c.want {
				t.Errorf("window %d: %s moved by %v for %d requests of another client, want %v", round+1, c.key, got, n, c.want)
			}
		}
	}
}
