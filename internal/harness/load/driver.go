package load

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"github.com/peakload/workshop/internal/harness/original"
	"io"
	"math/rand/v2"
	"net"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/valyala/fasthttp"

	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/proc"
	"github.com/peakload/workshop/internal/harness/result"
)

// VU is one virtual user: a closed loop that sends a request, waits for the
// response, and sends the next. State is the scenario's per-user memory
// (step 3 keeps the ETag the user last saw there).
type VU struct {
	ID    int
	Rand  *rand.Rand
	State any
}

// Variant is one row of a step's table: a route under load.
type Variant struct {
	Name  course.Variant // course.DirectDB: the row it fills
	Route string         // "GET /items/:id", as the results name it
	Tool  string         // "go" (default), "wrk" or "k6"
	// Method and Path give a fixed request; Prepare, when set, writes each
	// request itself (a hot-skewed id, an If-None-Match header…).
	Method  string
	Path    string
	Body    []byte
	Host    string // the Host header of a fixed request, when not the target's
	Prepare func(vu *VU, req *fasthttp.Request)
	// Check decides whether a response is an error. The default: status >= 400.
	Check func(vu *VU, resp *fasthttp.Response) error
	// Setup runs once before the variant (flush a cache, reset a counter).
	Setup func(ctx context.Context) error
	// Direct replaces HTTP: the variant measures itself (article B's raw
	// inserts from the workshop process, no server involved).
	Direct func(ctx context.Context, o Options) (result.Run, error)
	// Settle waits, after the load, until the server has persisted every
	// event it accepted, and reports that "additional time" (step 6).
	Settle bool
	// Applied, when set with Settle, counts at the database what the
	// variant's writes applied so far (step 7: the sum of its counters).
	// Measure reads it before the load and after the settle: the increase
	// is the row's persisted, and the server's own count of its writes
	// becomes acknowledged — a store that acknowledges a write and then
	// loses it (FerretDB's racing $inc) shows as the difference.
	Applied func(ctx context.Context) (float64, error)
	// Server, when set, gives the variant a server process of its own,
	// started with this extra environment and stopped after it (step 9:
	// one framework or pool size per process). Optional variants whose
	// server does not start are skipped with a note (a learner's exercise
	// not written yet), not failed.
	Server   []string
	Optional bool
	// Original, when set, runs the variant against the source's own stack
	// (originals/: Fastify, Express, Koa, Node's crypto, Elysia on Bun)
	// instead of the step's Go server: its own process, pinned like the Go
	// server, stopped after the variant (ORIGINAL=1).
	Original *original.Program
	// Pace makes each user send one request per Pace (sleeping for what
	// the response left of it): a client polling on a timer, not a
	// saturating one.
	Pace time.Duration
	// SeriesEvery is the interval of the run's per-interval series (0: one
	// second); shorter when the step's events are (step 4's expiries).
	SeriesEvery time.Duration
	// DatabaseCPU, when set, returns the CPU seconds the database's
	// processes have used so far: Measure reads it when the window opens
	// and after the settle, and records the database's CPU per event
	// persisted and its share of a core (article B's "Mongo CPU" column).
	DatabaseCPU func() float64
	// LockWait records how many requests waited on a lock, on average over
	// the window (Extra result.LockWaiting, from the server's
	// peakload_lock_wait_seconds_total): step 8's serialised logins.
	LockWait bool
}

// Options are the load parameters, the same names k6 uses.
type Options struct {
	Target string // base URL, http://127.0.0.1:PORT
	// Counters, when set, replaces the scrape of Target's /metrics at the
	// window's edges: a source's original, counted at the databases
	// (internal/harness/servicestats) since it exports no metrics of ours.
	Counters   func(ctx context.Context) (proc.Counters, error)
	VUs        int           // concurrent virtual users
	Iterations int           // total requests; 0 = run for Duration
	Duration   time.Duration // used when Iterations == 0
	Warmup     time.Duration // load before measuring (JIT-free Go still has cold caches and pools)
	Progress   io.Writer     // live progress line; nil for none
	series     *proc.Sampler // the per-interval series Measure keeps; nil for none
	// answered, when set, counts every 2xx the Go driver gets over the
	// whole row, before the window opens and after it closes too: a write
	// row's accepted events, counted over the same span as its persisted.
	answered *atomic.Int64
	// Rate, when > 0, sends on an arrival-rate schedule of Rate requests
	// per second instead of closed-loop users (openloop.go); VUs is then
	// the senders started, MaxInFlight the most it may grow to.
	Rate        float64
	MaxInFlight int
	// StallAfter is how late past both its due time and its sender's
	// readiness a request must leave to count in Arrival.Stalled (0:
	// LateAfter): a judge of latency sets it to the margin it allows.
	StallAfter time.Duration
	K6         K6 // the k6 binary and step script, for variants whose Tool is "k6"
	// ServicesCPU returns the CPU seconds the stack's databases have used
	// so far: with the server's and the load tool's, what the CPUs' busy
	// time over a window owes to us, the rest being other processes'
	// (Run.OtherCPU). nil when the bench cannot read the databases' CPU
	// (Compose, a server someone else runs): OtherCPU is then not measured.
	ServicesCPU func() float64
	// RequestTimeout bounds one request (0: 30 s closed, 10 s open) and
	// NoRetry sends each once: make probe's own rules, which it states.
	RequestTimeout time.Duration
	NoRetry        bool
	// dial, when set, opens the run's connections instead of TCP: the open
	// loop's tests run it over in-memory pipes inside a synctest bubble.
	dial func(addr string) (net.Conn, error)
}

// newClient is the loops' HTTP client: up to n kept-alive connections to
// addr, opened and counted by cs. A request waits up to o.RequestTimeout
// (else def) and, with o.NoRetry, is sent once: fasthttp otherwise sends a
// failed GET again, up to five times, each with the whole timeout.
func newClient(addr string, n int, o Options, def time.Duration, cs *conns) *fasthttp.HostClient {
	timeout := cmp.Or(o.RequestTimeout, def)
	c := &fasthttp.HostClient{
		Addr:                addr,
		MaxConns:            n,
		MaxIdleConnDuration: time.Minute,
		ReadTimeout:         timeout,
		WriteTimeout:        timeout,
		Dial:                cs.dial,
	}
	if o.NoRetry {
		c.MaxIdemponentCallAttempts = 1
		c.RetryIfErr = func(*fasthttp.Request, int, error) (bool, bool) { return false, false }
	}
	return c
}

// Drive runs one variant with the Go driver and returns what it measured.
// mark is called with "start" when the timed window opens (after the
// warm-up) and "end" when every user has stopped: Measure scrapes the
// server's counters there.
func Drive(ctx context.Context, o Options, v Variant, mark func(phase string)) (result.Run, error) {
	addr, err := hostPort(o.Target)
	if err != nil {
		return result.Run{}, err
	}
	var wire atomic.Int64
	cs := newConns(&wire, o.dial)
	client := newClient(addr, o.VUs, o, 30*time.Second, cs)
	defer client.CloseIdleConnections()

	w := &window{wire: &wire}
	w.left.Store(int64(o.Iterations))
	users, done := startUsers(client, o, v, w)

	// Warm up, then measure from a clean slate.
	if o.Warmup > 0 {
		select {
		case <-time.After(o.Warmup):
		case <-ctx.Done():
		case <-done:
		}
	}
	mark("start")
	wireStart := wire.Load()
	start := time.Now()
	w.measuring.Store(true)

	p := newProgress(o.Progress, string(v.Name), users, o)
	p.await(ctx, o, done, start)
	w.close()               // no-op when the last iteration already closed it
	cs.stopAfterGrace(done) // a user still waiting is past the window: cut it
	elapsed := time.Duration(w.endAt.Load() - start.UnixNano())
	wireBytes := w.wireEnd.Load() - wireStart
	mark("end")

	r := collect(v, o.VUs, elapsed, users)
	p.finish(elapsed, r.Requests)
	r.RPS = float64(r.Requests) / elapsed.Seconds()
	if r.Requests > 0 {
		r.PerRequest.PublicBytes = float64(wireBytes) / float64(r.Requests)
	}
	if err := ctx.Err(); err != nil {
		return r, fmt.Errorf("interrupted: %w", err)
	}
	return r, nil
}

// startUsers starts o.VUs users looping on client; done is closed when
// every one of them has stopped.
func startUsers(client *fasthttp.HostClient, o Options, v Variant, w *window) (users []*user, done chan struct{}) {
	users = make([]*user, o.VUs)
	for i := range users {
		users[i] = newUser(i, o)
	}
	var wg sync.WaitGroup
	for _, u := range users {
		wg.Go(func() { u.loop(client, o, v, w) })
	}
	done = make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	return users, done
}

// newUser is user id of a run: its own random source, seeded by its id so
// that a rerun sends the same requests, and its own histogram.
func newUser(id int, o Options) *user {
	return &user{
		vu:   VU{ID: id, Rand: rand.New(rand.NewPCG(uint64(id)+1, 0x5EED))},
		hist: hdrhistogram.New(1, 60_000_000, 3), // 1 µs .. 60 s
		rec:  o.series.Recorder(),
	}
}

// collect adds up the users' counts and histograms into the run's row:
// a histogram per user, merged once at the end, keeps the users from
// contending on one.
func collect(v Variant, vus int, window time.Duration, users []*user) result.Run {
	r := result.Run{Variant: v.Name, Route: v.Route, Tool: "go", VUs: vus, DurationS: window.Seconds()}
	hist := hdrhistogram.New(1, 60_000_000, 3)
	for _, u := range users {
		r.Requests += u.count.Load()
		r.Errors += u.errors
		hist.Merge(u.hist)
		if r.FirstError == "" && u.firstErr != "" {
			r.FirstError = u.firstErr
		}
	}
	r.Latency = latencyOf(hist)
	return r
}

type user struct {
	vu       VU
	hist     *hdrhistogram.Histogram
	rec      *proc.Recorder // this user's share of the per-interval series
	count    atomic.Int64   // read by the progress line while the loop runs
	errors   int64
	firstErr string
	_        [64]byte // keep users' hot counters on separate cache lines
}

// window is the timed part of a run, shared by all users. A response counts
// if it arrives while the window is open: requests in flight at either edge
// are then counted once, with their bytes, or not at all.
type window struct {
	measuring atomic.Bool
	stop      atomic.Bool
	left      atomic.Int64 // responses still to count, when Iterations > 0
	once      sync.Once
	endAt     atomic.Int64 // unix nanoseconds when the window closed
	wire      *atomic.Int64
	wireEnd   atomic.Int64
}

func (w *window) close() {
	w.once.Do(func() {
		w.stop.Store(true)
		w.endAt.Store(time.Now().UnixNano())
		w.wireEnd.Store(w.wire.Load())
	})
}

func (u *user) loop(client *fasthttp.HostClient, o Options, v Variant, w *window) {
	reqs, resp := newRequests(o, v), fasthttp.AcquireResponse()
	defer reqs.release()
	defer fasthttp.ReleaseResponse(resp)
	if v.Pace > 0 && o.VUs > 0 {
		// Polling clients do not start in lockstep: spread their phases
		// over one period. Started together, every user's poll lands in
		// the same instant each period, every key's TTL expires in the
		// same burst, and the stampedes that follow (slower with slower
		// round trips) skew the first seconds of the run.
		time.Sleep(v.Pace * time.Duration(u.vu.ID) / time.Duration(o.VUs))
	}
	for !w.stop.Load() {
		req := reqs.next(&u.vu)
		t0 := time.Now()
		err := client.Do(req, resp)
		lat := time.Since(t0)
		if err == nil {
			err = check(v, &u.vu, resp)
		}
		u.rec.Record(lat, err != nil) // the series sees the warm-up too
		if o.answered != nil && err == nil && resp.StatusCode()/100 == 2 {
			o.answered.Add(1) // a 503 told to retry later accepted nothing
		}
		if v.Pace > lat {
			time.Sleep(v.Pace - lat)
		}
		if !w.measuring.Load() || w.stop.Load() {
			continue // warm-up, or arrived after the window closed
		}
		if o.Iterations > 0 {
			n := w.left.Add(-1)
			if n < 0 {
				continue
			}
			if n == 0 {
				defer w.close() // after this last response is recorded
				w.stop.Store(true)
			}
		}
		u.count.Add(1)
		_ = u.hist.RecordValue(lat.Microseconds())
		if err != nil {
			u.errors++
			if u.firstErr == "" {
				u.firstErr = err.Error()
			}
			if errors.Is(err, fasthttp.ErrNoFreeConns) || isConnRefused(err) {
				time.Sleep(10 * time.Millisecond) // a dead server must not spin the driver
			}
		}
	}
}

func check(v Variant, vu *VU, resp *fasthttp.Response) error {
	if v.Check != nil {
		return v.Check(vu, resp)
	}
	if code := resp.StatusCode(); code >= 400 {
		return fmt.Errorf("HTTP %d: %.200s", code, resp.Body())
	}
	return nil
}

// isConnRefused reports a connection the server refused (it is not
// listening): only then does the driver back off, other errors are counted
// at full speed.
func isConnRefused(err error) bool { return errors.Is(err, syscall.ECONNREFUSED) }

// LatencyOf summarises a histogram of microseconds (for Direct variants).
func LatencyOf(h *hdrhistogram.Histogram) result.Latency { return latencyOf(h) }

func latencyOf(h *hdrhistogram.Histogram) result.Latency {
	ms := func(us int64) float64 { return float64(us) / 1000 }
	return result.Latency{
		P50: ms(h.ValueAtQuantile(50)), P95: ms(h.ValueAtQuantile(95)), P99: ms(h.ValueAtQuantile(99)),
		Max: ms(h.Max()), Mean: h.Mean() / 1000,
	}
}

func hostPort(target string) (string, error) {
	var uri fasthttp.URI
	if err := uri.Parse(nil, []byte(target)); err != nil {
		return "", fmt.Errorf("bad target %q: %w", target, err)
	}
	host := string(uri.Host())
	if _, _, err := net.SplitHostPort(host); err != nil {
		host += ":80"
	}
	return host, nil
}
