package scenario

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/peakload/workshop/internal/balancer"
	"github.com/peakload/workshop/internal/bench"
	"github.com/peakload/workshop/internal/course"
	"github.com/peakload/workshop/internal/params"
	"github.com/peakload/workshop/internal/replica"
)

// Step 10: the step-5 server as N replicas behind HAProxy. The rows are
// judged by counters summed over the replicas' /metrics, never by req/s:
// every replica shares the server's CPU(s), so throughput cannot grow
// with N on the workshop's machine.
//
//   - single: one server, no balancer (step 5's shape, the reference);
//   - rr-N: round-robin over N replicas — each one warms its own copy of
//     every hot item, so the burst tier loads each item N times per TTL;
//   - hash-N: HAProxy hashes the item's path on a consistent ring — one
//     replica per item, the loads of one process again;
//   - hash-N-stop: the same, one replica stopped a third of the way in
//     (the dip);
//   - stale-ttl / stale-pubsub: no load; items are changed through the
//     balancer and every replica is polled until it serves the new ETag
//     (the invalidation delay), without and with the exercise.
func init() {
	register(10, Step{
		// make step-10 profile: one replica under the item load (the fleet
		// rows and the drills start their own processes).
		Profile: string(course.Single),
		Variants: func(env Env) []bench.Variant {
			route := "GET " + scaleRoute
			vs := []bench.Variant{{Name: string(course.Single), Route: route, Prepare: itemRequest(env, "/burst"), Setup: flushRedis(env)}}
			ns := env.Params.ScaleOut.Replicas
			for _, n := range ns {
				vs = append(vs, fleetVariant(env, fmt.Sprintf("rr-%d", n), n, balancer.RoundRobin, false))
			}
			n := slices.Max(ns)
			vs = append(vs,
				fleetVariant(env, fmt.Sprintf("hash-%d", n), n, balancer.ByItem, false),
				fleetVariant(env, fmt.Sprintf("hash-%d-stop", n), n, balancer.ByItem, true),
				staleVariant(env, string(course.StaleTTL), n, false),
				staleVariant(env, string(course.StalePubSub), n, true))
			return vs
		},
		Claims: func(r *bench.Result, env Env) []bench.Claim { return scaleOutClaims(r, env) },
		Tables: scaleOutTables,
	})
}

// scaleRoute is the replicas' item route (steps/10-scale-out/main.go).
const scaleRoute = "/burst/items/:id"

// fleetVariant measures n replicas behind the balancer under the usual
// load; stopOne stops the last replica half-way through the window.
func fleetVariant(env Env, name string, n int, bal balancer.Balance, stopOne bool) bench.Variant {
	v := bench.Variant{Name: name, Route: "GET " + scaleRoute, Prepare: itemRequest(env, "/burst"), Setup: flushRedis(env)}
	v.Direct = func(ctx context.Context, o bench.Options) (bench.Run, error) {
		f, err := balancer.StartFleet(ctx, env.Fleet, n, bal, nil)
		if err != nil {
			return bench.Run{}, err
		}
		defer f.Stop()
		return driveFleet(ctx, env, o, v, f, stopOne)
	}
	return v
}

// driveFleet runs the load through the balancer and sums the replicas'
// counters. With stopOne, the last replica is stopped (SIGTERM) a third
// of the way in;
// the counters are also read at that moment and two burst TTLs later, to
// show the hit-ratio dip while its items move to the others.
func driveFleet(ctx context.Context, env Env, o bench.Options, v bench.Variant, f *balancer.Fleet, stopOne bool) (bench.Run, error) {
	o.Target = f.LB.Target
	v.Direct, v.Setup = nil, nil
	var (
		mu                           sync.Mutex
		before, after, atStop, atDip []bench.Counters
		scrapeErr                    error
		stopDone                     = make(chan struct{})
		stopMS                       float64
	)
	scrape := func() []bench.Counters {
		cs, err := f.Scrape(ctx)
		now := float64(time.Now().UnixNano()) / 1e9
		for _, c := range cs {
			if c != nil {
				c[scrapedAt] = now
			}
		}
		mu.Lock()
		scrapeErr = errors.Join(scrapeErr, err)
		mu.Unlock()
		return cs
	}
	burstTTL := env.Params.ForHitRatio(env.Params.Clock.BurstTTLS)
	close(stopDone)
	mark := func(phase string) {
		if phase == "start" {
			before = scrape()
			if stopOne {
				stopDone = make(chan struct{})
				go func() {
					defer close(stopDone)
					select {
					case <-time.After(o.Duration / 3):
					case <-ctx.Done():
						return
					}
					atStop = scrape()
					t0 := time.Now()
					_ = f.Replicas[len(f.Replicas)-1].Stop()
					stopMS = float64(time.Since(t0).Microseconds()) / 1000
					time.Sleep(2 * burstTTL)
					atDip = scrape()
				}()
			}
			return
		}
		<-stopDone
		after = scrape()
	}
	r, err := bench.Drive(ctx, o, v, mark)
	r.Tool = "go+haproxy"
	if err != nil {
		return r, err
	}
	if scrapeErr != nil {
		return r, scrapeErr
	}
	// A stopped replica's window ends when it was stopped.
	for i := range after {
		if after[i] == nil && atStop != nil {
			after[i] = atStop[i]
		}
	}
	w := sumWindow(before, after)
	if w.served == 0 {
		return r, fmt.Errorf("%s: the replicas counted no request on %s", v.Name, scaleRoute)
	}
	r.PerRequest.DBQueries = w.work.Per(w.work.DBQueries)
	r.PerRequest.RedisBytes = w.work.Per(w.work.RedisBytes)
	r.ExactCounts = w.work.Exact
	r.PerRequest.ServerCPUus = w.cpu * 1e6 / w.served
	r.Extra = map[string]float64{
		"replicas":           float64(len(f.Replicas)),
		"memory_hit_ratio":   w.hitRatio(),
		"redis_gets_per_req": w.work.Per(w.work.RedisGets),
		// Loads from Redis into memory per burst-TTL window, all replicas
		// together (one GET per load: the memory tier makes concurrent
		// misses of an item one load, and the hit ratio counts each
		// waiter as a miss): ~ the hot items once for one process, N
		// times for N replicas under round-robin.
		"redis_loads_per_ttl": w.gets / (r.DurationS / burstTTL.Seconds()),
		"cold_start_ms":       mean(f.StartMS),
	}
	// Copies per item: the loads divided by the distinct items that many
	// requests touch — what one process would load at the same request
	// rate. ~1 for one process or hash routing, up to N for round-robin;
	// unlike the loads alone it does not move with the machine's speed.
	perTTL := w.served / (r.DurationS / burstTTL.Seconds())
	if d := distinctItems(env.Params, perTTL); d > 0 {
		r.Extra["copies_per_item"] = r.Extra["redis_loads_per_ttl"] / d
	}
	var rss []float64
	for i, p := range f.Replicas {
		r.Extra[fmt.Sprintf("share_r%d", i+1)] = w.perReplica[i] / w.served
		if !p.Stopped() {
			rss = append(rss, p.PeakRSSMB())
		}
	}
	if len(rss) > 0 {
		r.Extra["replica_rss_mb"] = mean(rss)
	}
	if atStop != nil && atDip != nil {
		r.Extra["stop_ms"] = stopMS
		// The dip: the stopped replica's items move to the others, which
		// load each once more. Loads per TTL window before the stop, in the
		// two TTLs after it, and over the rest of the window.
		for _, ph := range []struct {
			name     string
			from, to []bench.Counters
		}{{"before_stop", before, atStop}, {"2ttl_after_stop", atStop, atDip}, {"rest", atDip, after}} {
			pw := sumWindow(ph.from, ph.to)
			secs := scrapeSpan(ph.from, ph.to)
			r.Extra["hit_ratio_"+ph.name] = pw.hitRatio()
			if secs > 0 {
				windows := secs / burstTTL.Seconds()
				r.Extra["redis_loads_per_ttl_"+ph.name] = pw.gets / windows
				if d := distinctItems(env.Params, pw.served/windows); d > 0 {
					r.Extra["copies_per_item_"+ph.name] = pw.gets / windows / d
				}
				r.Extra["rps_"+ph.name] = pw.served / secs
			}
		}
	}
	return r, nil
}

// window is what the replicas counted between two scrapes, summed.
type window struct {
	served, cpu, gets, hits, misses float64
	work                            bench.Work // DB queries, Redis bytes and GETs per completed request
	perReplica                      []float64
}

func (w window) hitRatio() float64 { return ratio(w.hits, w.hits+w.misses) }

// sumWindow adds every replica's deltas; a replica missing at either end
// (stopped) counts nothing.
func sumWindow(from, to []bench.Counters) window {
	w := window{perReplica: make([]float64, len(from))}
	for i := range from {
		if from[i] == nil || i >= len(to) || to[i] == nil {
			continue
		}
		d := func(key string) float64 { return bench.Delta(from[i], to[i], key) }
		served := d("peakload_http_requests_total{route=" + scaleRoute + "}")
		w.perReplica[i] = served
		w.served += served
		w.work = w.work.Add(bench.RequestWork(from[i], to[i], scaleRoute)) // per completed request
		w.cpu += d("process_cpu_seconds_total")
		w.gets += d("peakload_redis_commands_total{cmd=get}") // every GET: loads per TTL
		w.hits += d("peakload_cache_lookups_total{result=hit,tier=memory}")
		w.misses += d("peakload_cache_lookups_total{result=miss,tier=memory}")
	}
	return w
}

// scrapeSpan is the seconds between two scrapes (their wall times are
// kept in the counters under scrapedAt).
func scrapeSpan(from, to []bench.Counters) float64 {
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

// staleVariant changes items through the balancer while every replica is
// polled directly, and records how long each kept serving the old ETag
// after the change was answered. Without invalidation every replica keeps
// its copy up to the burst TTL; with it, the listening replicas drop it at
// once, and the last replica — started not listening, as one that missed
// the announcements — shows that the TTL still bounds a lost message.
func staleVariant(env Env, name string, n int, invalidation bool) bench.Variant {
	v := bench.Variant{Name: name, Route: "POST /items/:id/change", Setup: flushRedis(env)}
	v.Direct = func(ctx context.Context, o bench.Options) (bench.Run, error) {
		extra := func(i int) []string {
			switch {
			case !invalidation:
				return []string{"PEAKLOAD_INVALIDATION=off"}
			case i == n-1:
				return []string{"PEAKLOAD_LISTEN=off"}
			}
			return nil
		}
		listeners := 0
		if invalidation {
			listeners = n - 1
		}
		base, err := subscribers(ctx, env)
		if err != nil {
			return bench.Run{}, err
		}
		f, err := balancer.StartFleet(ctx, env.Fleet, n, balancer.RoundRobin, extra)
		if err != nil {
			return bench.Run{}, err
		}
		defer f.Stop()
		for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			if s, err := subscribers(ctx, env); err != nil || s >= base+int64(listeners) {
				break
			}
		}
		return drill(ctx, env, f, invalidation)
	}
	return v
}

// subscribers is how many connections listen on the replicas' channel.
func subscribers(ctx context.Context, env Env) (int64, error) {
	if env.Redis == nil {
		return 0, nil
	}
	m, err := env.Redis.PubSubNumSub(ctx, replica.Channel).Result()
	return m[replica.Channel], err
}

// drill makes the changes and measures the staleness per replica.
func drill(ctx context.Context, env Env, f *balancer.Fleet, invalidation bool) (bench.Run, error) {
	changes := env.Params.ScaleOut.Changes
	if env.Quick {
		changes = env.Params.ScaleOut.QuickChanges
	}
	n := len(f.Replicas)
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	defer client.CloseIdleConnections()
	burstTTL := env.Params.ForHitRatio(env.Params.Clock.BurstTTLS)
	limit := 3*burstTTL + time.Second
	before, err := f.Scrape(ctx)
	if err != nil {
		return bench.Run{}, err
	}
	var (
		polls, errs int64
		firstErr    string
		listening   []float64 // staleness of the listening replicas, ms
		missed      []float64 // of the replica that does not listen
	)
	start := time.Now()
	hot := env.Skew().HotIDs()
	for k := range changes {
		id := hot[k%len(hot)]
		stale, p, err := changeAndPoll(ctx, client, f, id, limit)
		polls += p
		if err != nil {
			errs++
			if firstErr == "" {
				firstErr = err.Error()
			}
			continue
		}
		for i, d := range stale {
			ms := float64(d.Microseconds()) / 1000
			if invalidation && i == n-1 {
				missed = append(missed, ms)
			} else {
				listening = append(listening, ms)
			}
		}
	}
	elapsed := time.Since(start)
	after, err := f.Scrape(ctx)
	if err != nil {
		return bench.Run{}, err
	}
	var forgets float64
	for i := range after {
		forgets += bench.Delta(before[i], after[i], "peakload_memory_forgets_total")
	}
	// The row's requests are the changes (its req/s, changes per second:
	// the drill is not a load); the polls are an extra.
	r := bench.Run{Tool: "drill", VUs: n, Requests: int64(changes), Errors: errs, FirstError: firstErr, DurationS: elapsed.Seconds(),
		RPS: float64(changes) / elapsed.Seconds()}
	r.Extra = map[string]float64{
		"polls":              float64(polls),
		"replicas":           float64(n),
		"changes":            float64(changes),
		"stale_ms_max":       slices.Max(append(listening, 0)),
		"stale_ms_mean":      mean(listening),
		"forgets_per_change": forgets / float64(changes),
		"burst_ttl_ms":       float64(burstTTL.Milliseconds()),
	}
	if len(missed) > 0 {
		r.Extra["stale_missed_ms_max"] = slices.Max(missed)
		r.Extra["stale_missed_ms_mean"] = mean(missed)
	}
	return r, nil
}

// changeAndPoll: every replica reads id (each holds it in memory now),
// then polls it directly in a loop while the change goes through the
// balancer; it returns, per replica, how long after the change was
// answered the replica still served the old ETag.
func changeAndPoll(ctx context.Context, client *http.Client, f *balancer.Fleet, id int32, limit time.Duration) ([]time.Duration, int64, error) {
	path := "/burst/items/" + strconv.Itoa(int(id))
	get := func(target string) (string, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, target+path, nil)
		if err != nil {
			return "", err
		}
		resp, err := client.Do(req)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		_, _ = io.Copy(io.Discard, resp.Body)
		if resp.StatusCode != http.StatusOK {
			return "", fmt.Errorf("GET %s: HTTP %d", path, resp.StatusCode)
		}
		return resp.Header.Get("ETag"), nil
	}
	old := make([]string, len(f.Replicas))
	for i, p := range f.Replicas {
		tag, err := get(p.Target)
		if err != nil {
			return nil, 0, err
		}
		old[i] = tag
	}
	var (
		mu    sync.Mutex
		t0    time.Time
		polls int64
		wg    sync.WaitGroup
		errs  = make([]error, len(f.Replicas))
		out   = make([]time.Duration, len(f.Replicas))
	)
	changedAt := func() time.Time { mu.Lock(); defer mu.Unlock(); return t0 }
	for i, p := range f.Replicas {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var lastOld time.Time
			for {
				start := time.Now()
				tag, err := get(p.Target)
				mu.Lock()
				polls++
				mu.Unlock()
				if err != nil {
					errs[i] = err
					return
				}
				c := changedAt()
				if tag == old[i] {
					lastOld = start
				} else if !c.IsZero() && start.After(c) {
					if lastOld.After(c) {
						out[i] = lastOld.Sub(c)
					}
					return
				}
				if !c.IsZero() && time.Since(c) > limit {
					out[i] = limit
					return
				}
				time.Sleep(time.Millisecond)
			}
		}()
	}
	time.Sleep(5 * time.Millisecond)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, f.LB.Target+"/items/"+strconv.Itoa(int(id))+"/change", nil)
	if err == nil {
		var resp *http.Response
		if resp, err = client.Do(req); err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				err = fmt.Errorf("POST /items/%d/change: HTTP %d", id, resp.StatusCode)
			}
		}
	}
	mu.Lock()
	t0 = time.Now()
	mu.Unlock()
	if err != nil {
		// The pollers stop at the limit; a failed change is counted.
		wg.Wait()
		return nil, polls, err
	}
	wg.Wait()
	return out, polls, errors.Join(errs...)
}

// scaleOutClaims: article A's costs of an in-process cache once the API
// runs as several replicas, judged by counters.
func scaleOutClaims(r *bench.Result, env Env) []bench.Claim {
	n := slices.Max(env.Params.ScaleOut.Replicas)
	one, rr, hash := r.Find("rr-1"), r.Find(fmt.Sprintf("rr-%d", n)), r.Find(fmt.Sprintf("hash-%d", n))
	dilution := bench.Claim{ID: "S10a", Measured: "not measured",
		Source:    bench.OursFrom("A", "Horizontal scale dẫn đến hiệu quả cache giảm (cache hit ratio thấp)", "article A lists it among a memory cache's costs, without a figure"),
		Article:   "with several API instances each warms its own burst cache: the hit ratio is diluted (article A lists a lower hit ratio under horizontal scale among a memory cache's costs, without a figure)",
		Tolerance: fmt.Sprintf("round-robin over %d replicas loads each item from Redis ≥ 2× as often per TTL window as one replica behind the same balancer (copies per item; ideal ×%d)", n, n)}
	restore := bench.Claim{ID: "S10b", Measured: "not measured",
		Source:    bench.Ours(""),
		Article:   "routing by key at the load balancer (consistent hashing on the item id) keeps each hot item on one replica",
		Tolerance: fmt.Sprintf("hash routing over %d replicas: copies per item ≤ 1.5× one replica's", n)}
	stale := bench.Claim{ID: "S10c", Measured: "not measured",
		Source:  bench.Ours(""),
		Article: "the invalidation delay of an in-process cache is up to its TTL; announcing a change to every replica brings it down to milliseconds, and a replica that missed the announcement is still bounded by the TTL",
		Tolerance: fmt.Sprintf("without invalidation some replica serves the old ETag > %.0f ms after the change; with it no listening replica does, and the replica that missed it catches up within the burst TTL + 100 ms",
			env.Params.ScaleOut.InvalidationBoundMS)}
	copies := func(x *bench.Run) float64 { return extra(x, "copies_per_item") }
	if one != nil && rr != nil && copies(one) > 0 {
		x := copies(rr) / copies(one)
		dilution.Measured = fmt.Sprintf("copies per item: 1 replica %.2f, %d round-robin %.2f (×%.1f); Redis loads per TTL window %.0f → %.0f; Redis GETs/request %.3f → %.3f",
			copies(one), n, copies(rr), x, extra(one, "redis_loads_per_ttl"), extra(rr, "redis_loads_per_ttl"), extra(one, "redis_gets_per_req"), extra(rr, "redis_gets_per_req"))
		dilution.Reproduced = bench.Verdict(one.Errors == 0 && rr.Errors == 0 && x >= 2)
	}
	if one != nil && hash != nil && copies(one) > 0 {
		x := copies(hash) / copies(one)
		restore.Measured = fmt.Sprintf("copies per item: 1 replica %.2f, %d hashed %.2f (×%.1f); Redis loads per TTL window %.0f; busiest replica's share %.0f%% (even: %.0f%%)",
			copies(one), n, copies(hash), x, extra(hash, "redis_loads_per_ttl"), 100*busiest(hash, n), 100/float64(n))
		restore.Reproduced = bench.Verdict(one.Errors == 0 && hash.Errors == 0 && x <= 1.5)
	}
	ttl, ps := find(r, course.StaleTTL), find(r, course.StalePubSub)
	if ttl != nil && ps != nil && extra(ps, "changes") > 0 {
		b := env.Params.ScaleOut.InvalidationBoundMS
		slack := extra(ps, "burst_ttl_ms") + 100
		stale.Measured = fmt.Sprintf("old ETag served after a change: without invalidation up to %.0f ms (mean %.0f); with pub/sub up to %.1f ms (mean %.1f) on the listening replicas, %.0f ms on the one that missed the announcements (burst TTL %.0f ms); forgets per change %.1f",
			extra(ttl, "stale_ms_max"), extra(ttl, "stale_ms_mean"), extra(ps, "stale_ms_max"), extra(ps, "stale_ms_mean"), extra(ps, "stale_missed_ms_max"), extra(ps, "burst_ttl_ms"), extra(ps, "forgets_per_change"))
		stale.Reproduced = bench.Verdict(ttl.Errors == 0 && ps.Errors == 0 && extra(ttl, "stale_ms_max") > b &&
			extra(ps, "stale_ms_max") <= b && extra(ps, "stale_missed_ms_max") <= slack)
	}
	return []bench.Claim{dilution, restore, stale}
}

// busiest is the largest share of requests one replica served.
func busiest(x *bench.Run, n int) float64 {
	var m float64
	for i := 1; i <= n; i++ {
		m = max(m, extra(x, fmt.Sprintf("share_r%d", i)))
	}
	return m
}

// scaleOutTables: what each replica did, the dip, the stale window.
func scaleOutTables(r *bench.Result) []bench.Table {
	load := bench.Table{Title: "replicas behind HAProxy (counters summed over the replicas' /metrics)",
		Header: []string{"variant", "replicas", "memory hit", "Redis GETs/req", "Redis loads/TTL", "copies/item", "DB q/req", "requests per replica", "RSS/replica MB", "cold start ms"},
		Notes: []string{"Redis loads/TTL: items loaded from Redis into memory per burst-TTL window, all replicas together; copies/item: those loads ÷ the distinct items that many requests touch (what one process would load) — ~1 for one process or hash routing, up to N for round-robin",
			"requests per replica: each replica's own request counter — the balancer is in the path; req/s cannot grow with N here (every replica shares the server's CPU)"}}
	for _, x := range r.Runs {
		if x.Extra == nil || (x.Variant != "single" && x.Extra["replicas"] == 0) || x.Extra["changes"] > 0 {
			continue
		}
		n := int(x.Extra["replicas"])
		shares := "100%"
		if n > 0 {
			var ps []string
			for i := 1; i <= n; i++ {
				ps = append(ps, fmt.Sprintf("%.0f%%", 100*x.Extra[fmt.Sprintf("share_r%d", i)]))
			}
			shares = strings.Join(ps, " / ")
		}
		rss, start := "-", "-"
		if v := x.Extra["replica_rss_mb"]; v > 0 {
			rss = fmt.Sprintf("%.0f", v)
		} else if x.ServerPeakRSSMB > 0 {
			rss = fmt.Sprintf("%.0f", x.ServerPeakRSSMB)
		}
		if v := x.Extra["cold_start_ms"]; v > 0 {
			start = fmt.Sprintf("%.0f", v)
		}
		reps := "1 (no balancer)"
		if n > 0 {
			reps = strconv.Itoa(n)
		}
		load.Rows = append(load.Rows, []string{x.Variant, reps, fmt.Sprintf("%.1f%%", 100*x.Extra["memory_hit_ratio"]),
			fmt.Sprintf("%.3f", x.Extra["redis_gets_per_req"]), orDash(x.Extra, "redis_loads_per_ttl", "%.0f"),
			orDash(x.Extra, "copies_per_item", "%.2f"), fmt.Sprintf("%.3f", x.PerRequest.DBQueries), shares, rss, start})
	}
	tables := []bench.Table{load}
	for _, x := range r.Runs {
		if _, ok := x.Extra["hit_ratio_before_stop"]; !ok {
			continue
		}
		t := bench.Table{Title: "one replica stopped a third of the way in (" + x.Variant + ")",
			Header: []string{"window", "req/s", "Redis loads/TTL", "copies/item", "memory hit ratio"},
			Notes:  []string{fmt.Sprintf("the window after the stop starts when the replica was told to stop (SIGTERM; it took %.0f ms to exit) and ends two burst TTLs after it exited", x.Extra["stop_ms"])}}
		for _, ph := range []struct{ key, name string }{{"before_stop", "before the stop"}, {"2ttl_after_stop", "2 burst TTLs after"}, {"rest", "the rest"}} {
			t.Rows = append(t.Rows, []string{ph.name, fmt.Sprintf("%.0f", x.Extra["rps_"+ph.key]), fmt.Sprintf("%.0f", x.Extra["redis_loads_per_ttl_"+ph.key]),
				fmt.Sprintf("%.2f", x.Extra["copies_per_item_"+ph.key]), fmt.Sprintf("%.2f%%", 100*x.Extra["hit_ratio_"+ph.key])})
		}
		t.Notes = append(t.Notes, fmt.Sprintf("errors during the whole row: %d (HAProxy retries a request that found the replica gone on another one)", x.Errors))
		tables = append(tables, t)
	}
	stale := bench.Table{Title: "the stale window: how long after a change each replica served the old ETag",
		Header: []string{"variant", "changes", "max ms (stale-pubsub: the listening replicas)", "mean ms", "replica that missed them: max ms", "forgets per change"}}
	for _, x := range r.Runs {
		if x.Extra["changes"] == 0 {
			continue
		}
		missed := "-"
		if v, ok := x.Extra["stale_missed_ms_max"]; ok {
			missed = fmt.Sprintf("%.0f", v)
		}
		stale.Rows = append(stale.Rows, []string{x.Variant, fmt.Sprintf("%.0f", x.Extra["changes"]), fmt.Sprintf("%.1f", x.Extra["stale_ms_max"]),
			fmt.Sprintf("%.1f", x.Extra["stale_ms_mean"]), missed, fmt.Sprintf("%.1f", x.Extra["forgets_per_change"])})
	}
	if len(stale.Rows) > 0 {
		tables = append(tables, stale)
	}
	return tables
}

// orDash formats extra[key], or "-" for a row that does not have it (the
// single server's row is measured by the shared bench path).
func orDash(extra map[string]float64, key, format string) string {
	if v, ok := extra[key]; ok {
		return fmt.Sprintf(format, v)
	}
	return "-"
}
