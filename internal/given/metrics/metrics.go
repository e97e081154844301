// Package metrics holds the counters every step server exposes on /metrics.
// They are what the bench divides by the request count to report per-request
// cost (DB queries, Redis bytes, response bytes), so they are counted where
// the work happens: at the database driver and the Redis connection, not in
// the handlers.
package metrics

import (
	"context"
	"errors"
	"runtime/metrics"

	"github.com/jackc/pgx/v5"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// Registry is the one registry a step server serves.
var Registry = prometheus.NewRegistry()

// Data table: one Prometheus metric an entry, its name and help, each declared
// once and named for what it counts.
var (
	// Requests counts HTTP responses by route pattern, method and status.
	Requests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "peakload_http_requests_total", Help: "HTTP responses by route, method and status.",
	}, []string{"route", "method", "status"})
	// ResponseBytes counts response body bytes by route, method and status.
	ResponseBytes = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "peakload_http_response_bytes_total", Help: "HTTP response body bytes by route, method and status.",
	}, []string{"route", "method", "status"})
	// DBQueries counts every query sent to PostgreSQL, counted at the driver.
	DBQueries = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "peakload_db_queries_total", Help: "Queries sent to PostgreSQL (pgx tracer).",
	})
	// DBErrors counts queries that failed.
	DBErrors = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "peakload_db_errors_total", Help: "PostgreSQL queries that returned an error.",
	})
)

// LockWait is the time the server's goroutines spent blocked on a
// sync.Mutex, sync.RWMutex or a runtime lock, from the Go runtime's own
// count (runtime/metrics, always on, sampled): a lock that serialises
// requests shows here as seconds of waiting per second, whatever the CPUs
// did (step 8). The mutex profile says which lock; this says how much.
var LockWait = prometheus.NewCounterFunc(prometheus.CounterOpts{
	Name: "peakload_lock_wait_seconds_total", Help: "Seconds goroutines spent blocked on locks (runtime /sync/mutex/wait/total:seconds).",
}, func() float64 {
	s := []metrics.Sample{{Name: "/sync/mutex/wait/total:seconds"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindFloat64 {
		return 0
	}
	return s[0].Value.Float64()
})

func init() {
	Registry.MustRegister(Requests, ResponseBytes, DBQueries, DBErrors, LockWait,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
}

// PGTracer counts queries at the pgx driver, so a query issued anywhere (a
// handler, a cache loader, a worker) is counted exactly once; a query on a
// request's context is also added to its tally (tally.go).
type PGTracer struct{}

// TraceQueryStart implements pgx.QueryTracer.
func (PGTracer) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	DBQueries.Inc()
	TallyOf(ctx).AddDBQuery()
	return ctx
}

// TraceQueryEnd implements pgx.QueryTracer.
func (PGTracer) TraceQueryEnd(_ context.Context, _ *pgx.Conn, data pgx.TraceQueryEndData) {
	if data.Err != nil && !errors.Is(data.Err, pgx.ErrNoRows) {
		DBErrors.Inc()
	}
}

// Cache-side counters (steps 2–5).
// Data table: one Prometheus metric an entry, its name and help, each declared
// once and named for what it counts.
var (
	// RedisReadBytes and RedisWrittenBytes are the internal bandwidth of
	// article A5, counted on the Redis connections themselves.
	RedisReadBytes = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "peakload_redis_read_bytes_total", Help: "Bytes read from Redis connections.",
	})
	RedisWrittenBytes = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "peakload_redis_written_bytes_total", Help: "Bytes written to Redis connections.",
	})
	// RedisCommands counts commands sent to Redis by name (get, set, …).
	RedisCommands = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "peakload_redis_commands_total", Help: "Redis commands by name.",
	}, []string{"cmd"})
	// CacheLookups counts cache lookups by tier ("redis", "memory") and result ("hit", "miss").
	CacheLookups = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "peakload_cache_lookups_total", Help: "Cache lookups by tier and result.",
	}, []string{"tier", "result"})
	// FailOpen counts reads served from the database because Redis failed.
	FailOpen = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "peakload_cache_fail_open_total", Help: "Reads that fell back to the database because Redis failed.",
	})
	// Coalesced counts callers that shared another caller's load (singleflight).
	Coalesced = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "peakload_coalesced_total", Help: "Loads shared with a concurrent caller instead of run again.",
	})
)

func init() {
	Registry.MustRegister(RedisReadBytes, RedisWrittenBytes, RedisCommands, CacheLookups, FailOpen, Coalesced)
}

// Write-side counters (steps 6–7).
// Data table: one Prometheus metric an entry, its name and help, each declared
// once and named for what it counts.
var (
	// MongoCommands counts commands sent to MongoDB by name (insert, update,
	// …): the database round trips of article B.
	MongoCommands = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "peakload_mongo_commands_total", Help: "MongoDB commands by name (round trips).",
	}, []string{"cmd"})
	// EventsAccepted counts events the API answered 2xx for.
	EventsAccepted = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "peakload_events_accepted_total", Help: "Events acknowledged to clients.",
	})
	// EventsPersisted counts events MongoDB confirmed as written.
	EventsPersisted = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "peakload_events_persisted_total", Help: "Events confirmed written to MongoDB.",
	})
	// EventsDuplicates counts events a retry found already stored (duplicate
	// _id): a write that got in although its acknowledgement was lost,
	// absorbed instead of stored twice.
	EventsDuplicates = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "peakload_events_duplicates_total", Help: "Retried events found already stored (duplicate _id), counted once.",
	})
	// EventsRejected counts accepted events the database refused for good
	// (an invalid key, a duplicate on a unique index, …), by reason: set
	// aside in a dead-letter collection, never retried. Accepted = persisted
	// + rejected, once the buffers are empty.
	EventsRejected = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "peakload_events_rejected_total", Help: "Accepted events the database refused for good, dead-lettered, by reason.",
	}, []string{"reason"})
)

func init() {
	Registry.MustRegister(MongoCommands, EventsAccepted, EventsPersisted, EventsDuplicates, EventsRejected)
}

// Batcher metrics (step 6).
// Data table: one Prometheus metric an entry, its name and help, each declared
// once and named for what it counts.
var (
	QueueDepth = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "peakload_batch_queue_depth", Help: "Events accepted and waiting to be written.",
	})
	BatchSize = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name: "peakload_batch_size", Help: "Events per flush.", Buckets: prometheus.ExponentialBuckets(1, 4, 8),
	})
	FlushSeconds = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name: "peakload_batch_flush_seconds", Help: "Time to persist one batch, retries included.",
		Buckets: prometheus.ExponentialBuckets(0.001, 4, 8),
	})
	FlushRetries = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "peakload_batch_flush_retries_total", Help: "Batch writes retried after a database error.",
	})
)

func init() {
	Registry.MustRegister(QueueDepth, BatchSize, FlushSeconds, FlushRetries)
}

// DBWrites counts write statements sent to MongoDB (one per InsertOne or
// UpdateOne, one per model of a BulkWrite): step 7's "writes per request".
var DBWrites = prometheus.NewCounter(prometheus.CounterOpts{
	Name: "peakload_db_writes_total", Help: "Write statements sent to MongoDB (documents inserted or updated).",
})

func init() { Registry.MustRegister(DBWrites) }

// Scale-out counters (step 10).
// Data table: one Prometheus metric an entry, its name and help, each declared
// once and named for what it counts.
var (
	// ItemChanges counts items changed through a replica (database written,
	// Redis key deleted).
	ItemChanges = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "peakload_item_changes_total", Help: "Items changed through this replica.",
	})
	// MemoryForgets counts items dropped from the memory tier on purpose
	// (an invalidation), not by expiry: with pub/sub every replica counts
	// one per change, wherever it was made.
	MemoryForgets = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "peakload_memory_forgets_total", Help: "Items dropped from the in-process cache by an invalidation.",
	})
)

func init() { Registry.MustRegister(ItemChanges, MemoryForgets) }
