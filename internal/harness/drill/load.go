package drill

import (
	"context"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/peakload/workshop/internal/harness/proc"
)

// Load is clients sending requests in a loop until stopped or until the
// server is gone, counting what came back. A 503 with Retry-After is
// honoured as a well-behaved client does: wait (with jitter), then go on.
type Load struct {
	Accepted   atomic.Int64 // 2xx: the server took responsibility for the write
	Rejected   atomic.Int64 // 503 (buffer full, or closing)
	RetryAfter atomic.Int64 // 503s that said when to come back
	ServerErrs atomic.Int64 // other 5xx: never expected
	Requests   atomic.Int64
	stop       chan struct{}
	wg         sync.WaitGroup
}

// Request is one request a client sends: method, path and body.
type Request func(r *rand.Rand) (method, path, body string)

// StartLoad starts n clients against target.
func StartLoad(target string, n int, next Request) *Load {
	return StartLoadSeries(target, n, next, nil)
}

// StartLoadSeries is StartLoad with each client's responses recorded into
// a per-interval series (nil: none).
func StartLoadSeries(target string, n int, next Request, series *proc.Sampler) *Load {
	l := &Load{stop: make(chan struct{})}
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: n}}
	for i := range n {
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			rnd := rand.New(rand.NewPCG(uint64(i), 42))
			rec := series.Recorder()
			for {
				select {
				case <-l.stop:
					return
				default:
				}
				method, path, body := next(rnd)
				req, _ := http.NewRequest(method, target+path, strings.NewReader(body))
				if body != "" {
					req.Header.Set("Content-Type", "application/json")
				}
				t0 := time.Now()
				resp, err := client.Do(req)
				if err != nil {
					return // the server is gone (SIGTERM closed its listener)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				rec.Record(time.Since(t0), resp.StatusCode >= 500)
				l.Requests.Add(1)
				switch code := resp.StatusCode; {
				case code >= 200 && code < 300:
					l.Accepted.Add(1)
				case code == http.StatusServiceUnavailable:
					l.Rejected.Add(1)
					wait := 100 * time.Millisecond
					if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 {
						l.RetryAfter.Add(1)
						wait = time.Duration(s) * time.Second
					}
					// Up to half as long again, at random: clients turned
					// away together must not all come back in the same
					// millisecond and fill the buffer again at once.
					wait += time.Duration(rnd.Int64N(int64(wait/2) + 1))
					select {
					case <-l.stop:
						return
					case <-time.After(wait):
					}
				case code >= 500:
					l.ServerErrs.Add(1)
				}
			}
		}()
	}
	return l
}

// Stop stops the clients and waits for the requests in flight.
func (l *Load) Stop() {
	select {
	case <-l.stop:
	default:
		close(l.stop)
	}
	l.wg.Wait()
}

// Watch scrapes a server's /metrics every 100 ms while a drill runs,
// keeping the peaks and the last values seen (a server that has exited
// can no longer be asked).
type Watch struct {
	mu   sync.Mutex
	last proc.Counters
	max  map[string]float64
	seen []func(proc.Counters)
	stop context.CancelFunc
	done chan struct{}
}

// StartWatch starts scraping target.
func StartWatch(target string) *Watch {
	ctx, cancel := context.WithCancel(context.Background())
	w := &Watch{max: map[string]float64{}, stop: cancel, done: make(chan struct{})}
	go func() {
		defer close(w.done)
		for ctx.Err() == nil {
			if c, err := proc.Scrape(ctx, target); err == nil {
				w.mu.Lock()
				w.last = c
				for k, v := range c {
					w.max[k] = max(w.max[k], v)
				}
				for _, f := range w.seen {
					f(c)
				}
				w.mu.Unlock()
			}
			select {
			case <-ctx.Done():
			case <-time.After(100 * time.Millisecond):
			}
		}
	}()
	return w
}

// Last is the latest scrape.
func (w *Watch) Last() proc.Counters {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.last
}

// Max is the highest value a series reached.
func (w *Watch) Max(key string) float64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.max[key]
}

// Until waits until ok holds for a scrape (or timeout), and returns how long that took.
func (w *Watch) Until(ok func(proc.Counters) bool, timeout time.Duration) (time.Duration, bool) {
	t0 := time.Now()
	hit := make(chan struct{})
	var once sync.Once
	w.mu.Lock()
	w.seen = append(w.seen, func(c proc.Counters) {
		if ok(c) {
			once.Do(func() { close(hit) })
		}
	})
	w.mu.Unlock()
	select {
	case <-hit:
		return time.Since(t0), true
	case <-time.After(timeout):
		return time.Since(t0), false
	}
}

// Stop ends the scraping.
func (w *Watch) Stop() { w.stop(); <-w.done }

// drive is what a drill runs: the step server, the watch on its counters,
// the series sampled from it and the clients' load on it.
type drive struct {
	srv    *proc.Proc
	watch  *Watch
	series *proc.Sampler
	load   *Load
}

// startDrive starts the server, then watches, samples and loads it.
func startDrive(ctx context.Context, start func() (*proc.Proc, error), clients int, next Request) (*drive, error) {
	srv, err := start()
	if err != nil {
		return nil, err
	}
	d := &drive{srv: srv, watch: StartWatch(srv.Target), series: proc.StartSeries(ctx, srv.Target, "", seriesEvery)}
	d.load = StartLoadSeries(srv.Target, clients, next, d.series)
	return d, nil
}

// stop ends them in the reverse order (a drill may have stopped some).
func (d *drive) stop(ctx context.Context) {
	d.load.Stop()
	d.series.Finish(ctx)
	d.watch.Stop()
	d.srv.Stop()
}
