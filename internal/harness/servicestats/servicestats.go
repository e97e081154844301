// Package servicestats counts a server's work at the databases themselves,
// for the servers that export no /metrics of ours: the sources' own stacks
// (ORIGINAL=1, originals/). It reads PostgreSQL's pg_stat_statements, Redis's
// INFO and MongoDB's serverStatus, and the server process's CPU from /proc,
// and names what it reads as the Go step servers' /metrics name it, so the
// table's per-request columns mean the same on both stacks.
//
// What differs from a Go server's own counters: the databases count every
// client (during a bench only the server and the bench's change worker,
// whose statement is left out, talk to them), and a window's edges cut the
// requests in flight: the per-request figures divide by the requests the
// driver counted, as `make probe`'s do.
package servicestats

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/redis/go-redis/v9"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/peakload/workshop/internal/given/catalog"
	"github.com/peakload/workshop/internal/given/dbaddr"
	"github.com/peakload/workshop/internal/harness/proc"
)

// Uses says which databases a server talks to: only those are read.
// Events also counts the documents of the events collection (a write
// row's persisted events: emptied before it, so counted quickly).
type Uses struct{ Postgres, Redis, Mongo, Events bool }

// Reader reads the counters of one server process and of the databases it
// uses. Open it before the first reading, Close it after the last: its
// connections stay open so that reading costs the databases the same
// small, known work every time (subtracted from what they report).
type Reader struct {
	pid   int
	uses  Uses
	pg    *pgx.Conn
	redis *redis.Client
	mongo *mongo.Client
	// What this reader's own Redis commands sent and received so far.
	ownCmds, ownIn, ownOut float64
	// EventsErr is why the last count of the events was unread.
	EventsErr error
}

// EventsUnread is set in a reading whose count of the events (Uses.Events)
// did not come in time.
const EventsUnread = "servicestats_events_unread"

// Open connects to the databases u names at eps, for the server process pid.
func Open(ctx context.Context, pid int, eps dbaddr.Endpoints, u Uses) (*Reader, error) {
	r := &Reader{pid: pid, uses: u}
	var err error
	if u.Postgres {
		if r.pg, err = pgx.Connect(ctx, eps.PostgresURL); err != nil {
			return nil, fmt.Errorf("servicestats: PostgreSQL: %w", err)
		}
		if _, err = r.pg.Exec(ctx, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements"); err != nil {
			r.Close()
			return nil, fmt.Errorf("servicestats: PostgreSQL cannot count statements (pg_stat_statements: %w); the workshop's native PostgreSQL loads it when it starts: `make down`, then bench again", err)
		}
	}
	if u.Redis {
		r.redis = redis.NewClient(&redis.Options{Addr: eps.RedisAddr, PoolSize: 1, Protocol: 2, DisableIdentity: true})
		if err = r.redis.Ping(ctx).Err(); err != nil {
			r.Close()
			return nil, fmt.Errorf("servicestats: Redis: %w", err)
		}
	}
	if u.Mongo {
		if r.mongo, err = mongo.Connect(options.Client().ApplyURI(eps.MongoURL).SetMaxPoolSize(1)); err != nil {
			r.Close()
			return nil, fmt.Errorf("servicestats: MongoDB: %w", err)
		}
	}
	return r, nil
}

// Close closes the reader's connections.
func (r *Reader) Close() {
	if r.pg != nil {
		_ = r.pg.Close(context.Background())
	}
	if r.redis != nil {
		_ = r.redis.Close()
	}
	if r.mongo != nil {
		_ = r.mongo.Disconnect(context.Background())
	}
}

// Read returns the counters now. A database the server uses that cannot be
// read is an error: a per-request figure of 0 would be a lie.
func (r *Reader) Read(parent context.Context) (proc.Counters, error) {
	ctx, cancel := context.WithTimeout(parent, 5*time.Second)
	defer cancel()
	c := proc.Counters{"process_cpu_seconds_total": proc.TreeCPUSeconds([]int{r.pid})}
	var errs []error
	if r.pg != nil {
		errs = append(errs, r.statements(ctx, c))
	}
	if r.redis != nil {
		errs = append(errs, r.redisInfo(ctx, c))
	}
	if r.mongo != nil {
		errs = append(errs, r.mongoCommands(ctx, c))
	}
	if r.mongo != nil && r.uses.Events {
		// A write row's MongoDB is busiest when a reading wants its count:
		// a count that does not come in time is marked unread (EventsUnread),
		// for the settle to read again, not an error that ends the row.
		if err := r.events(parent, c); err != nil {
			c[EventsUnread] = 1
			r.EventsErr = err
		}
	}
	return c, errors.Join(errs...)
}

// statementsSQL sums pg_stat_statements' calls in the catalogue's
// database, leaving out this reading and the bench's change worker. It
// counts a statement when it ends, in shared memory: unlike
// pg_stat_database (flushed up to 10 s late), it is current when read.
const statementsSQL = `SELECT coalesce(sum(calls), 0)::float8 FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
WHERE d.datname = current_database() AND s.query NOT LIKE '%pg_stat_statements%' AND s.query NOT LIKE $1`

// workerStatements matches the change worker's statement as
// pg_stat_statements keeps it: its constants become $n, so it is matched
// by its first line ("UPDATE live_stats"), which no original sends.
var workerStatements = strings.TrimSpace(strings.SplitN(catalog.ChangeSQL, "\n", 2)[0]) + "%"

func (r *Reader) statements(ctx context.Context, c proc.Counters) error {
	var n float64
	if err := r.pg.QueryRow(ctx, statementsSQL, workerStatements).Scan(&n); err != nil {
		return fmt.Errorf("servicestats: PostgreSQL statements: %w", err)
	}
	c["peakload_db_queries_total"] = n
	return nil
}

// infoStats and infoCommands are the RESP requests of the two INFO
// commands (RESP2, as the reader speaks it): their bytes are ours.
var infoStats, infoCommands = resp("info", "stats"), resp("info", "commandstats")

// redisInfo reads INFO stats and commandstats. Redis counts a command
// after it runs and its reply's bytes when they are sent, so a reading's
// two INFOs and their replies land in the next window: each reading
// subtracts every earlier one's (and its own requests' bytes, read first).
func (r *Reader) redisInfo(ctx context.Context, c proc.Counters) error {
	r.ownIn += float64(len(infoStats))
	stats, err := r.redis.Info(ctx, "stats").Result()
	if err != nil {
		return fmt.Errorf("servicestats: Redis INFO: %w", err)
	}
	f := fields(stats)
	c["peakload_redis_read_bytes_total"] = f["total_net_output_bytes"] - r.ownOut
	c["peakload_redis_written_bytes_total"] = f["total_net_input_bytes"] - r.ownIn
	c["peakload_redis_commands_total"] = f["total_commands_processed"] - r.ownCmds
	cmds, err := r.redis.Info(ctx, "commandstats").Result()
	if err != nil {
		return fmt.Errorf("servicestats: Redis INFO: %w", err)
	}
	r.ownIn += float64(len(infoCommands))
	r.ownOut += float64(bulkLen(stats) + bulkLen(cmds))
	r.ownCmds += 2
	for name, v := range fields(cmds) { // cmdstat_get:calls=12,usec=…
		cmd, ok := strings.CutPrefix(name, "cmdstat_")
		if !ok || cmd == "info" {
			continue
		}
		c["peakload_redis_commands_total{cmd="+cmd+"}"] = v
	}
	return nil
}

// fields parses INFO's "name:value" lines; a "calls=12,usec=…" value is
// read as its first number.
func fields(info string) map[string]float64 {
	out := map[string]float64{}
	for _, line := range strings.Split(info, "\n") {
		name, val, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok {
			continue
		}
		val, _, _ = strings.Cut(strings.TrimPrefix(val, "calls="), ",")
		if n, err := strconv.ParseFloat(val, 64); err == nil {
			out[name] = n
		}
	}
	return out
}

// bulkLen is the bytes of s sent as a RESP2 bulk string: $<len>\r\n s \r\n.
func bulkLen(s string) int { return 1 + len(strconv.Itoa(len(s))) + 2 + len(s) + 2 }

func resp(args ...string) string {
	out := fmt.Sprintf("*%d\r\n", len(args))
	for _, a := range args {
		out += fmt.Sprintf("$%d\r\n%s\r\n", len(a), a)
	}
	return out
}

// notTheServers are the commands of this reading and of the drivers'
// handshakes and heartbeats, which the Go server's command monitor does
// not see either.
var notTheServers = map[string]bool{"serverStatus": true, "hello": true, "isMaster": true, "ismaster": true,
	"ping": true, "buildInfo": true, "count": true, // count: this reading's count of the events
	"buildinfo": true, "getParameter": true, "endSessions": true, "saslStart": true, "saslContinue": true}

// mongoCommands reads serverStatus' metrics.commands.<name>.total (mongod
// and FerretDB both keep them): the round trips by command, as the Go
// server's peakload_mongo_commands_total{cmd=…} counts them.
func (r *Reader) mongoCommands(ctx context.Context, c proc.Counters) error {
	var st struct {
		Metrics struct {
			Commands map[string]bson.RawValue `bson:"commands"`
		} `bson:"metrics"`
	}
	if err := r.mongo.Database("admin").RunCommand(ctx, bson.D{{Key: "serverStatus", Value: 1}}).Decode(&st); err != nil {
		return fmt.Errorf("servicestats: MongoDB serverStatus: %w", err)
	}
	for name, raw := range st.Metrics.Commands {
		var cmd struct {
			Total int64 `bson:"total"`
		}
		if raw.Type != bson.TypeEmbeddedDocument || raw.Unmarshal(&cmd) != nil || notTheServers[name] {
			continue
		}
		c["peakload_mongo_commands_total{cmd="+name+"}"] = float64(cmd.Total)
		c["peakload_mongo_commands_total"] += float64(cmd.Total)
	}
	return nil
}

// events counts the documents of the collection the write routes insert
// into (events.Store's): what an original persisted. The count command is
// exact on a collection no one deletes from during the row, and cheaper
// than an aggregation; FerretDB counts its rows in PostgreSQL, which a
// write row keeps busy, so it gets longer than the reading's other parts.
func (r *Reader) events(ctx context.Context, c proc.Counters) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	n, err := r.mongo.Database("workshop").Collection("events").EstimatedDocumentCount(ctx)
	if err != nil {
		return fmt.Errorf("servicestats: MongoDB events: %w", err)
	}
	c["peakload_events_persisted_total"] = float64(n)
	return nil
}
