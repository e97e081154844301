package metrics

import (
	"context"
	"maps"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
)

// A window's "DB queries per request" divides two counters scraped at its
// edges. The global counters tick when the work is sent, the request
// counter when the response is written: with many slow requests in flight
// at an edge, the two disagree by up to one request's work per request in
// flight (10 % of a short window on a loaded machine). So each request also
// keeps its own Tally, carried in its context, and the shell adds it to the
// Completed counters on the line after it counts the response: a window
// then holds a request's work exactly when it holds its response.
//
// What "per completed request" means:
//   - work done on a request's context (its handler, a cache loader called
//     with its ctx) is in its tally;
//   - a load shared by several requests (step 4's singleflight) runs on the
//     first caller's context (context.WithoutCancel keeps its values), so
//     its one query is in that request's tally and no other: counted once;
//   - work on no request's context (the live-stats worker, a batch flush,
//     a pub/sub listener) and work added after its request completed are in
//     the global counters only.
//
// The global counters stay what they were (every query, every byte), for
// rows that count work outside requests: step 4's queries per key expiry,
// the write path's round trips (counted after the server settled).
type Tally struct {
	dbQueries, redisCommands, redisGets, redisBytes atomic.Int64
	done                                            atomic.Bool
}

// Completed counters: the tallies of the requests whose response was
// counted, by route, and how many requests they are. The bench divides
// one by the other: both are added by Complete, in the same call.
//
// Data table: one Prometheus metric an entry, its name and help, each declared
// once and named for what it counts.
var (
	CompletedRequests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "peakload_completed_requests_total", Help: "Responses counted with their request's tally (the divisor of the completed counters).",
	}, []string{"route"})
	CompletedDBQueries = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "peakload_completed_db_queries_total", Help: "PostgreSQL queries sent on behalf of requests, counted when the response is.",
	}, []string{"route"})
	CompletedRedisCommands = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "peakload_completed_redis_commands_total", Help: "Redis commands sent on behalf of requests, counted when the response is.",
	}, []string{"route"})
	CompletedRedisGets = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "peakload_completed_redis_gets_total", Help: "Redis GETs sent on behalf of requests, counted when the response is.",
	}, []string{"route"})
	CompletedRedisBytes = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "peakload_completed_redis_bytes_total", Help: "RESP bytes of the Redis commands and replies of requests, counted when the response is.",
	}, []string{"route"})
)

func init() {
	Registry.MustRegister(CompletedRequests, CompletedDBQueries, CompletedRedisCommands, CompletedRedisGets, CompletedRedisBytes)
}

// completed is one route's Completed counters, resolved once: the
// requests of a route find them again without hashing labels.
type completed struct{ requests, dbQueries, redisCommands, redisGets, redisBytes prometheus.Counter }

// completedByRoute is copied on write, as responses is (responses.go): a
// sync.Map would box the route into an interface, an allocation per request.
var (
	completedByRoute atomic.Pointer[map[string]*completed]
	completedLock    sync.Mutex
)

func init() { completedByRoute.Store(&map[string]*completed{}) }

func completedOf(route string) *completed {
	if c, ok := (*completedByRoute.Load())[route]; ok {
		return c
	}
	completedLock.Lock()
	defer completedLock.Unlock()
	old := *completedByRoute.Load()
	if c, ok := old[route]; ok {
		return c
	}
	c := &completed{CompletedRequests.WithLabelValues(route), CompletedDBQueries.WithLabelValues(route),
		CompletedRedisCommands.WithLabelValues(route), CompletedRedisGets.WithLabelValues(route), CompletedRedisBytes.WithLabelValues(route)}
	m := maps.Clone(old)
	m[route] = c
	completedByRoute.Store(&m)
	return c
}

type tallyKey struct{}

// tallyCtx is a context and its tally in one allocation: this runs on
// every request of every step.
type tallyCtx struct {
	context.Context
	t Tally
}

func (c *tallyCtx) Value(key any) any {
	if key == (tallyKey{}) {
		return &c.t
	}
	return c.Context.Value(key)
}

// WithTally returns ctx carrying a new tally, and the tally.
func WithTally(ctx context.Context) (context.Context, *Tally) {
	c := &tallyCtx{Context: ctx}
	return c, &c.t
}

// tallied is a request, the context it carries and its tally, in one
// allocation: the shell adds this to every request of every step.
type tallied struct {
	req http.Request
	ctx tallyCtx
}

// WithRequestTally returns a copy of r whose context carries a new tally,
// and the tally.
func WithRequestTally(r *http.Request) (*http.Request, *Tally) {
	t := &tallied{ctx: tallyCtx{Context: r.Context()}}
	t.req = *r.WithContext(&t.ctx) // inlined: the copy WithContext makes stays on the stack
	return &t.req, &t.ctx.t
}

// TallyOf returns the tally ctx carries, nil outside a request.
func TallyOf(ctx context.Context) *Tally {
	if ctx == nil {
		return nil
	}
	t, _ := ctx.Value(tallyKey{}).(*Tally)
	return t
}

// AddDBQuery counts one query on the tally (nil: none).
func (t *Tally) AddDBQuery() {
	if t != nil {
		t.dbQueries.Add(1)
	}
}

// AddRedis counts one Redis command of n RESP bytes (command and reply).
func (t *Tally) AddRedis(get bool, n int64) {
	if t == nil {
		return
	}
	t.redisCommands.Add(1)
	if get {
		t.redisGets.Add(1)
	}
	t.redisBytes.Add(n)
}

// DBQueries and RedisBytes are what the tally holds so far.
func (t *Tally) DBQueries() int64  { return t.dbQueries.Load() }
func (t *Tally) RedisBytes() int64 { return t.redisBytes.Load() }

// Complete adds the tally to the Completed counters of route, and counts
// its request there. Call it next to the request's CountResponse; a second
// call adds nothing.
func (t *Tally) Complete(route string) {
	if t == nil || t.done.Swap(true) {
		return
	}
	c := completedOf(route)
	add := func(v prometheus.Counter, n int64) {
		if n > 0 {
			v.Add(float64(n))
		}
	}
	add(c.dbQueries, t.dbQueries.Load())
	add(c.redisCommands, t.redisCommands.Load())
	add(c.redisGets, t.redisGets.Load())
	add(c.redisBytes, t.redisBytes.Load())
	c.requests.Inc()
}
