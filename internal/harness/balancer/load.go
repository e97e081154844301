package balancer

import (
	"context"
	"errors"
	"math"
	"sync"
	"time"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/given/routes"
	"github.com/peakload/workshop/internal/harness/load"
	"github.com/peakload/workshop/internal/harness/proc"
	"github.com/peakload/workshop/internal/harness/result"
)

// ItemRoute is the replicas' item route (steps/10-scale-out/main.go): what
// the load requests, and whose counters a row sums.
const ItemRoute = routes.Burst

// Load is one of step 10's load rows: n replicas behind the balancer under
// the bench's usual load; with StopOne, the last replica is stopped
// (SIGTERM) a third of the way in.
type Load struct {
	Replicas int
	Balance  Balance
	StopOne  bool
	Params   params.Params // the burst TTL and the catalogue's skew
}

// RunLoad starts the fleet, drives the load o of v through its balancer,
// and stops it. The row is judged by the replicas' counters, summed.
func RunLoad(ctx context.Context, s Spec, l Load, o load.Options, v load.Variant) (result.Run, error) {
	f, err := StartFleet(ctx, s, l.Replicas, l.Balance, nil)
	if err != nil {
		return result.Run{}, err
	}
	defer f.Stop()
	return f.drive(ctx, l, o, v)
}

// drive runs the load through the balancer and reads the replicas'
// counters at its start and end; with StopOne also at the stop and two
// burst TTLs later, to show the hit-ratio dip while the stopped replica's
// items move to the others.
func (f *Fleet) drive(ctx context.Context, l Load, o load.Options, v load.Variant) (result.Run, error) {
	o.Target = f.LB.Target
	v.Direct, v.Setup = nil, nil
	burstTTL := l.Params.ForHitRatio(l.Params.Clock.BurstTTLS)
	m := &moments{f: f, stopAfter: o.Duration / 3, dip: 2 * burstTTL, stopDone: make(chan struct{})}
	close(m.stopDone)
	r, err := load.Drive(ctx, o, v, func(phase string) { m.mark(ctx, phase, l.StopOne) })
	r.Tool = "go+haproxy"
	if err != nil {
		return r, err
	}
	if m.err != nil {
		return r, m.err
	}
	// A stopped replica's window ends when it was stopped.
	for i := range m.after {
		if m.after[i] == nil && m.atStop != nil {
			m.after[i] = m.atStop[i]
		}
	}
	w := sumWindow(m.before, m.after)
	if w.served == 0 {
		return r, errors.New(messages.T("balancer.no_request", v.Name, ItemRoute))
	}
	c := counting{p: l.Params, burstTTL: burstTTL}
	c.loadFigures(&r, w)
	f.replicaFigures(&r, w)
	if m.atStop != nil && m.atDip != nil {
		r.Extra[result.StopMS] = m.stopMS
		c.dipFigures(&r, m)
	}
	return r, nil
}

// moments are the replicas' counters read during one load row: at its
// start and end, and with a stop, when it came and two burst TTLs later.
type moments struct {
	f                            *Fleet
	stopAfter, dip               time.Duration
	before, after, atStop, atDip []proc.Counters
	stopMS                       float64 // how long the stopped replica took to exit
	stopDone                     chan struct{}
	mu                           sync.Mutex
	err                          error // every scrape's
}

// mark is the load's phase callback: "start" reads the counters (and,
// with stopOne, starts the stop), the end waits for the stop's readings
// and reads them again.
func (m *moments) mark(ctx context.Context, phase string, stopOne bool) {
	if phase != "start" {
		<-m.stopDone
		m.after = m.scrape(ctx)
		return
	}
	m.before = m.scrape(ctx)
	if stopOne {
		m.stopDone = make(chan struct{})
		go m.stopOne(ctx)
	}
}

// stopOne stops the last replica a third of the way in, reading the
// counters just before and two burst TTLs after it.
func (m *moments) stopOne(ctx context.Context) {
	defer close(m.stopDone)
	select {
	case <-time.After(m.stopAfter):
	case <-ctx.Done():
		return
	}
	m.atStop = m.scrape(ctx)
	t0 := time.Now()
	_ = m.f.Replicas[len(m.f.Replicas)-1].Stop()
	m.stopMS = float64(time.Since(t0).Microseconds()) / 1000
	time.Sleep(m.dip)
	m.atDip = m.scrape(ctx)
}

// scrape reads every replica's counters, stamped with the time it read
// them (scrapedAt), and keeps any error for the row.
func (m *moments) scrape(ctx context.Context) []proc.Counters {
	cs, err := m.f.Scrape(ctx)
	now := float64(time.Now().UnixNano()) / 1e9
	for _, c := range cs {
		if c != nil {
			c[scrapedAt] = now
		}
	}
	m.mu.Lock()
	m.err = errors.Join(m.err, err)
	m.mu.Unlock()
	return cs
}

// counting turns the replicas' counters into a row's figures.
type counting struct {
	p        params.Params
	burstTTL time.Duration
}

// loadFigures: the per-request work, the hit ratio, and the loads from
// Redis per burst-TTL window.
func (c counting) loadFigures(r *result.Run, w window) {
	r.PerRequest.DBQueries = w.work.Per(w.work.DBQueries)
	r.PerRequest.RedisBytes = w.work.Per(w.work.RedisBytes)
	r.ExactCounts = w.work.Exact
	r.PerRequest.ServerCPUus = w.cpu * 1e6 / w.served
	windows := r.DurationS / c.burstTTL.Seconds()
	r.Extra = map[result.Key]float64{
		result.MemoryHitRatio:  w.hitRatio(),
		result.RedisGetsPerReq: w.work.Per(w.work.RedisGets),
		// Loads from Redis into memory per burst-TTL window, all replicas
		// together (one GET per load: the memory tier makes concurrent
		// misses of an item one load, and the hit ratio counts each
		// waiter as a miss): ~ the hot items once for one process, N
		// times for N replicas under round-robin.
		result.RedisLoadsPerTTL: w.gets / windows,
	}
	// Copies per item: the loads divided by the distinct items that many
	// requests touch — what one process would load at the same request
	// rate. ~1 for one process or hash routing, up to N for round-robin;
	// unlike the loads alone it does not move with the machine's speed.
	if d := distinctItems(c.p, w.served/windows); d > 0 {
		r.Extra[result.CopiesPerItem] = r.Extra[result.RedisLoadsPerTTL] / d
	}
}

// replicaFigures: how many replicas, each one's share of the requests,
// their cold start and memory.
func (f *Fleet) replicaFigures(r *result.Run, w window) {
	r.Extra[result.Replicas] = float64(len(f.Replicas))
	r.Extra[result.ColdStartMS] = mean(f.StartMS)
	var rss []float64
	for i, p := range f.Replicas {
		r.Extra[result.ShareOfReplica(i+1)] = w.perReplica[i] / w.served
		if !p.Stopped() {
			rss = append(rss, p.PeakRSSMB())
		}
	}
	if len(rss) > 0 {
		r.Extra[result.ReplicaRSSMB] = mean(rss)
	}
}

// dipFigures: the stopped replica's items move to the others, which load
// each once more. Loads per TTL window before the stop, in the two TTLs
// after it, and over the rest of the window.
func (c counting) dipFigures(r *result.Run, m *moments) {
	for _, ph := range []struct {
		name     result.Phase
		from, to []proc.Counters
	}{{result.BeforeStop, m.before, m.atStop}, {result.TwoTTLAfterStop, m.atStop, m.atDip}, {result.RestAfterStop, m.atDip, m.after}} {
		pw := sumWindow(ph.from, ph.to)
		secs := scrapeSpan(ph.from, ph.to)
		r.Extra[result.HitRatioIn(ph.name)] = pw.hitRatio()
		if secs <= 0 {
			continue
		}
		windows := secs / c.burstTTL.Seconds()
		r.Extra[result.RedisLoadsPerTTLIn(ph.name)] = pw.gets / windows
		if d := distinctItems(c.p, pw.served/windows); d > 0 {
			r.Extra[result.CopiesPerItemIn(ph.name)] = pw.gets / windows / d
		}
		r.Extra[result.RPSIn(ph.name)] = pw.served / secs
	}
}

// window is what the replicas counted between two scrapes, summed.
type window struct {
	served, cpu, gets, hits, misses float64
	work                            proc.Work // DB queries, Redis bytes and GETs per completed request
	perReplica                      []float64
}

func (w window) hitRatio() float64 {
	if w.hits+w.misses == 0 {
		return 0
	}
	return w.hits / (w.hits + w.misses)
}

// sumWindow adds every replica's deltas; a replica missing at either end
// (stopped) counts nothing.
func sumWindow(from, to []proc.Counters) window {
	w := window{perReplica: make([]float64, len(from))}
	for i := range from {
		if from[i] == nil || i >= len(to) || to[i] == nil {
			continue
		}
		d := func(key string) float64 { return proc.Delta(from[i], to[i], key) }
		served := d("peakload_http_requests_total{route=" + ItemRoute + "}")
		w.perReplica[i] = served
		w.served += served
		w.work = w.work.Add(proc.RequestWork(from[i], to[i], ItemRoute)) // per completed request
		w.cpu += d("process_cpu_seconds_total")
		w.gets += d("peakload_redis_commands_total{cmd=get}") // every GET: loads per TTL
		w.hits += d("peakload_cache_lookups_total{result=hit,tier=memory}")
		w.misses += d("peakload_cache_lookups_total{result=miss,tier=memory}")
	}
	return w
}

// scrapeSpan is the seconds between two scrapes (their wall times are
// kept in the counters under scrapedAt).
func scrapeSpan(from, to []proc.Counters) float64 {
	for i := range from {
		if from[i] != nil && i < len(to) && to[i] != nil {
			return to[i][scrapedAt] - from[i][scrapedAt]
		}
	}
	return 0
}

// scrapedAt is the key under which scrape stores when it read a replica.
const scrapedAt = "workshop_scraped_at_seconds"

// distinctItems is how many different items m requests drawn by the
// skew touch on average: Σ 1 − (1 − p)^m over the hot items, plus the
// cold picks (each almost surely a new item).
func distinctItems(p params.Params, m float64) float64 {
	c := p.Catalog
	var h float64
	for k := 1; k <= c.HotItems; k++ {
		h += math.Pow(float64(k), -c.ZipfS)
	}
	d := (1 - c.HotShare) * m
	for k := 1; k <= c.HotItems; k++ {
		pk := c.HotShare * math.Pow(float64(k), -c.ZipfS) / h
		d += 1 - math.Pow(1-pk, m)
	}
	return d
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}
