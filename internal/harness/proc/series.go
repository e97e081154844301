package proc

import (
	"context"
	"math"
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/peakload/workshop/internal/harness/result"
)

// Per-interval series: what happened during a run, second by second. The
// table is the timed window's totals; the series is the same run as a
// film — the warm-up, a stampede at each expiry, a dip when a database
// dies, the drain after the load stops — kept in the results JSON and
// drawn by `make report`.
//
// The clients' side (responses, p50/p99, errors) comes from the Go driver's
// users, each recording into a small histogram of its own that the sampler
// swaps once per interval. The server's side (CPU, DB queries, Redis bytes,
// events persisted) comes from its /metrics, scraped once per interval. A
// scrape costs the server a fraction of a millisecond of CPU (bounded by
// TestScrapeCost in internal/given/server): a few parts in ten thousand of its one
// CPU at one scrape per second, counted inside the window's "server µs/req"
// like any other work, and far inside the noise of every figure here. The
// driver's side costs it about 30 ns per request.

// Sampler builds a Series while a variant (or a drill) runs.
type Sampler struct {
	target string
	route  string // the server's route label, for rps when the clients are not ours
	every  time.Duration
	t0     time.Time
	cancel context.CancelFunc
	done   chan struct{}

	mu      sync.Mutex
	recs    []*Recorder
	series  result.Series
	prev    Counters
	prevAt  time.Time
	lastAt  time.Time // the end of the last interval of the clients' side
	merged  *hdrhistogram.Histogram
	stopped bool
}

// Recorder is one user's latencies of the current interval. Its lock is
// uncontended except once per interval, when the sampler swaps the
// histogram: about 30 ns of the driver's CPU per request, lock included.
type Recorder struct {
	mu      sync.Mutex
	h, done *hdrhistogram.Histogram
	errors  int64
}

// intervalHistogram has two significant digits (1 % resolution, ~20 KB),
// enough for a per-second p99 and small enough for hundreds of users.
func intervalHistogram() *hdrhistogram.Histogram { return hdrhistogram.New(1, 60_000_000, 2) }

// Record counts one response (failed: an error, or a status the user
// counts as one) and its latency; a nil Recorder records nothing.
func (r *Recorder) Record(lat time.Duration, failed bool) {
	if r == nil {
		return
	}
	r.mu.Lock()
	_ = r.h.RecordValue(lat.Microseconds())
	if failed {
		r.errors++
	}
	r.mu.Unlock()
}

// StartSeries begins sampling target's counters every interval (default one
// second); route is the pattern the server labels the variant's requests
// with ("/items/:id"). Measure starts one per variant; a drill starts its own.
func StartSeries(parent context.Context, target, route string, every time.Duration) *Sampler {
	if every <= 0 {
		every = time.Second
	}
	// Finish ends the loop with cancel; a sample it catches halfway still
	// scrapes with parent (and its own timeout): cut short, its point would
	// read as a server that did not answer.
	ctx, cancel := context.WithCancel(parent)
	s := &Sampler{target: target, route: route, every: every, t0: time.Now(), cancel: cancel,
		done: make(chan struct{}), merged: intervalHistogram()}
	s.series.EveryS = every.Seconds()
	s.lastAt = s.t0
	if c, err := Scrape(ctx, target); err == nil {
		s.prev, s.prevAt = c, time.Now()
	}
	go func() {
		defer close(s.done)
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				// A slow scrape (a loaded machine) leaves a tick waiting
				// in the ticker: a point a few ms long would be noise.
				s.mu.Lock()
				early := time.Since(s.lastAt) < s.every/2
				s.mu.Unlock()
				if !early {
					s.sample(parent)
				}
			}
		}
	}()
	return s
}

// Recorder gives one user its interval histogram; nil (which records
// nothing) when no series is kept.
func (s *Sampler) Recorder() *Recorder {
	if s == nil {
		return nil
	}
	r := &Recorder{h: intervalHistogram(), done: intervalHistogram()}
	s.mu.Lock()
	s.recs = append(s.recs, r)
	s.series.Clients = true
	s.mu.Unlock()
	return r
}

// sinceStart is the time since sampling began, in seconds to the
// millisecond: where a mark or an event stands on the chart.
func (s *Sampler) sinceStart() float64 {
	return math.Round(time.Since(s.t0).Seconds()*1000) / 1000
}

// Mark notes where the timed window opens ("start") and closes ("end").
func (s *Sampler) Mark(phase string) {
	if s == nil {
		return
	}
	at := s.sinceStart()
	s.mu.Lock()
	defer s.mu.Unlock()
	if phase == "start" {
		s.series.WindowS[0] = at
	} else {
		s.series.WindowS[1] = at
	}
}

// sample closes one interval: the users' histograms, then a scrape.
func (s *Sampler) sample(ctx context.Context) {
	s.mu.Lock()
	recs := s.recs
	s.mu.Unlock()
	errs := s.mergeClients(recs)
	swapped := time.Now() // the clients' interval ends here; the scrape may take a while
	sctx, cancel := context.WithTimeout(ctx, max(s.every, time.Second))
	c, err := Scrape(sctx, s.target)
	cancel()
	now := time.Now()

	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return
	}
	dt := swapped.Sub(s.lastAt).Seconds()
	s.lastAt = swapped
	p := result.Point{T: swapped.Sub(s.t0).Seconds(), Errors: errs}
	if len(recs) > 0 && dt > 0 {
		p.RPS = float64(s.merged.TotalCount()) / dt
		if s.merged.TotalCount() > 0 {
			p.P50 = float64(s.merged.ValueAtQuantile(50)) / 1000
			p.P99 = float64(s.merged.ValueAtQuantile(99)) / 1000
		}
	}
	if err != nil || s.prev == nil {
		p.NoScrape, p.NoRPS = true, len(recs) == 0
	} else if ds := now.Sub(s.prevAt).Seconds(); ds > 0 {
		rate := func(keys ...string) float64 {
			var d float64
			for _, k := range keys {
				d += Delta(s.prev, c, k)
			}
			return d / ds
		}
		p.ServerCPU = rate("process_cpu_seconds_total")
		p.DBQueries = rate("peakload_db_queries_total")
		p.RedisBytes = rate("peakload_redis_read_bytes_total", "peakload_redis_written_bytes_total")
		body := "peakload_http_response_bytes_total"
		if s.route != "" {
			body += "{route=" + s.route + "}"
		}
		p.BodyBytes = rate(body)
		p.Persisted = rate("peakload_events_persisted_total")
		p.QueueDepth = c["peakload_batch_queue_depth"]
		if key := "peakload_http_requests_total{route=" + s.route + "}"; len(recs) == 0 {
			_, counted := c[key]
			p.RPS, p.NoRPS = rate(key), !counted // step 0's bare shell counts no route
		}
	}
	if err == nil {
		s.prev, s.prevAt = c, now
	}
	s.series.Points = append(s.series.Points, p.Rounded())
}

// mergeClients swaps each client's histogram for its empty twin, so the
// clients record on while this interval's is merged into s.merged, and
// returns the errors they counted in it.
func (s *Sampler) mergeClients(recs []*Recorder) (errs int64) {
	s.merged.Reset()
	for _, r := range recs {
		r.mu.Lock()
		r.h, r.done = r.done, r.h
		errs += r.errors
		r.errors = 0
		r.mu.Unlock()
		s.merged.Merge(r.done)
		r.done.Reset()
	}
	return errs
}

// Event notes something that happened at this moment (a drill's "Redis
// stopped"), drawn on the chart as a marked line.
func (s *Sampler) Event(what string) {
	if s == nil {
		return
	}
	at := s.sinceStart()
	s.mu.Lock()
	s.series.Events = append(s.series.Events, result.Event{T: at, What: what})
	s.mu.Unlock()
}

// Finish stops sampling, closes the last (partial) interval when it is long
// enough to say something, and returns the series; nil on a nil sampler.
func (s *Sampler) Finish(ctx context.Context) *result.Series {
	if s == nil {
		return nil
	}
	s.cancel()
	<-s.done
	s.mu.Lock()
	partial := time.Since(s.lastAt) > s.every/4 && !s.stopped
	s.mu.Unlock()
	if partial {
		s.sample(ctx)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopped = true
	out := s.series
	return &out
}
