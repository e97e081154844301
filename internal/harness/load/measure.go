package load

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/proc"
	"github.com/peakload/workshop/internal/harness/result"
	"github.com/peakload/workshop/internal/harness/servicestats"
)

// Measure runs one variant with its tool and fills the per-request costs
// from the server's counters, scraped when the timed window opens and closes.
func Measure(ctx context.Context, o Options, v Variant, plan result.CPUPlan, dir string) (result.Run, error) {
	if v.Setup != nil {
		if err := v.Setup(ctx); err != nil {
			return result.Run{}, fmt.Errorf("%s: setup: %w", v.Name, err)
		}
	}
	if v.Settle {
		// No warm-up: a write row counts its events from its first request
		// (settleRow), and a warm-up's would only lengthen it.
		o.Warmup = 0
	}
	if v.Direct != nil {
		r, err := v.Direct(ctx, o)
		r.Variant, r.Route = v.Name, v.Route
		if r.Tool == "" { // a Direct variant may say what drove it (step 10: "go+haproxy")
			r.Tool = "direct"
		}
		return r, err
	}
	applied0, err := readApplied(ctx, o, v)
	if err != nil {
		return result.Run{}, err
	}
	var base proc.Counters // a write row's counts before its first request
	var answered atomic.Int64
	if v.Settle {
		if base, err = quietBase(ctx, o); err != nil {
			return result.Run{}, fmt.Errorf("%s: %w", v.Name, err)
		}
		o.answered = &answered
	}
	_, pattern, _ := strings.Cut(v.Route, " ")
	w := &edges{o: o, v: v, pattern: pattern, series: proc.StartSeries(ctx, o.Target, pattern, v.SeriesEvery)}
	dbAtLoad := 0.0
	w.loadAt = time.Now()
	if v.Settle && v.DatabaseCPU != nil {
		dbAtLoad = v.DatabaseCPU()
	}
	defer w.series.Finish(ctx)
	o.series = w.series
	r, err := drive(ctx, o, v, plan, dir, func(phase string) { w.mark(ctx, phase) })
	if v.Tool != "wrk" && v.Tool != "k6" && r.Requests > 0 { // the Go driver: its CPU is this process's
		r.ClientCPUus = float64((w.cpu1 - w.cpu0).Microseconds()) / float64(r.Requests)
	}
	if err == nil {
		err = w.err
	}
	if err != nil {
		return r, err
	}
	perRequestCosts(&r, w.before, w.after, pattern, plan)
	lead := 0.0 // seconds of load before the window opened, when counted
	if v.Settle {
		if lead, err = settleRow(ctx, o, w, base, answered.Load(), &r); err != nil {
			return r, err
		}
		if lead > 0 && v.DatabaseCPU != nil {
			w.db0 = dbAtLoad // the database's work on the row's every event
		}
		if err := countApplied(ctx, o, v, applied0, &r); err != nil {
			return r, err
		}
	}
	recordDatabaseCPU(&r, v, w.db0, lead)
	r.OtherCPU = otherCPU(w.cpus, plan, r, (w.cpu1 - w.cpu0).Seconds(), proc.Delta(w.before, w.after, "process_cpu_seconds_total"))
	if v.LockWait {
		lockWait(&r, w.before, w.after)
	}
	r.Series = w.series.Finish(ctx) // after the settle: the drain is part of the picture
	return r, nil
}

// settleRow waits for a write row's events to be persisted (settle) and
// records its write side, counted from base, before its first request: the
// events accepted before the window opened are then accepted and persisted
// in the row's counts, not persisted only. It returns the seconds of load
// before the window opened (0 when the counts start at the window: wrk or
// k6 on a source's original, whose answers are known only in it).
func settleRow(ctx context.Context, o Options, w *edges, base proc.Counters, answered int64, r *result.Run) (float64, error) {
	read := func(ctx context.Context) (proc.Counters, error) { return proc.Scrape(ctx, o.Target) }
	accepted := -1.0 // the server's own count
	from, inWindow := base, proc.Delta(w.before, w.after, "peakload_events_accepted_total")
	if o.Counters != nil {
		// A source's original counts nothing: what it accepted is what
		// the driver got a 2xx for, what it persisted the documents at
		// MongoDB, both over the whole row: its users start before the
		// window's reading (a count at MongoDB, slow under load) ends.
		read, inWindow, accepted = o.Counters, float64(r.Requests-r.Errors), float64(answered)
		if answered == 0 { // wrk, k6: only the window's responses are known
			from, accepted = w.before, inWindow
		}
	}
	if err := settle(ctx, read, from, w.pattern, accepted, r); err != nil {
		return 0, err
	}
	if o.Counters != nil && answered == 0 || r.DurationS <= 0 {
		return 0, nil
	}
	// The counts span the whole row, from its first request: so does the
	// persisted rate; the accepted rate is the window's.
	lead := w.openedAt.Sub(w.loadAt).Seconds()
	r.Extra[result.AcceptedPerS] = inWindow / r.DurationS
	r.Extra[result.PersistedPerS] = r.Extra[result.Persisted] / (lead + r.DurationS + r.Extra[result.AdditionalS])
	return lead, nil
}

// quietBase reads a write row's counters before its first request, once
// no one else writes: a source's original is a fresh process, but the
// previous one's last writes may still be landing at MongoDB (its count
// must hold still for two readings), and a count unread is read again.
func quietBase(ctx context.Context, o Options) (proc.Counters, error) {
	if o.Counters == nil { // the Go server: the previous row settled on it
		return proc.Scrape(ctx, o.Target)
	}
	const key = "peakload_events_persisted_total"
	deadline := time.Now().Add(time.Minute)
	var last proc.Counters
	for {
		c, err := o.Counters(ctx)
		if err != nil {
			return nil, fmt.Errorf("count before the load: %w", err)
		}
		if c[servicestats.EventsUnread] == 0 && last != nil && c[key] == last[key] {
			return c, nil
		}
		if time.Now().After(deadline) {
			return nil, errors.New(messages.T("load.base_moving"))
		}
		if c[servicestats.EventsUnread] == 0 {
			last = c
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// drive runs v's load with its tool; mark is called when the timed window
// opens ("start") and closes.
func drive(ctx context.Context, o Options, v Variant, plan result.CPUPlan, dir string, mark func(string)) (result.Run, error) {
	switch {
	case v.Tool == "wrk":
		return DriveWrk(ctx, o, v, plan, dir, mark)
	case v.Tool == "k6":
		return DriveK6(ctx, o, v, o.K6, plan, dir, mark)
	case o.Rate > 0:
		return DriveOpen(ctx, o, v, mark)
	default:
		return Drive(ctx, o, v, mark)
	}
}

// edges is what Measure reads at the timed window's edges: the server's
// counters, this process's CPU (the Go driver's), the database's CPU and
// every CPU's busy time (what other processes took).
type edges struct {
	o             Options
	v             Variant
	series        *proc.Sampler
	before, after proc.Counters
	err           error // the first failed reading of the counters
	cpu0, cpu1    time.Duration
	db0           float64 // the database's CPU seconds when the window opened
	cpus          [2]cpuEdge
	pattern       string    // the route's, as the server counts it
	loadAt        time.Time // when the row's first request was sent
	openedAt      time.Time // when the window's opening reading was done
}

func (w *edges) mark(ctx context.Context, phase string) {
	w.series.Mark(phase)
	start := phase == "start"
	if start {
		w.cpus[0] = readEdge(w.o)
		if w.v.DatabaseCPU != nil {
			w.db0 = w.v.DatabaseCPU()
		}
	} else {
		defer func() { w.cpus[1] = readEdge(w.o) }()
		w.cpu1 = proc.SelfCPU()
	}
	read := func(ctx context.Context) (proc.Counters, error) { return proc.Scrape(ctx, w.o.Target) }
	if w.o.Counters != nil { // a source's original: counted at the databases
		read = w.o.Counters
	}
	c, err := read(ctx)
	if err != nil && w.err == nil {
		w.err = err
	}
	if start {
		w.before, w.cpu0, w.openedAt = c, proc.SelfCPU(), time.Now()
	} else {
		w.after = c
	}
}

// perRequestCosts divides the window's counters by what the server counted
// for the route in the same window (by the driver's count when the server
// counted none), and flags the row when the load tool was the limit.
func perRequestCosts(r *result.Run, before, after proc.Counters, pattern string, plan result.CPUPlan) {
	served := proc.Delta(before, after, "peakload_http_requests_total{route="+pattern+"}")
	if served <= 0 {
		served = float64(r.Requests)
	}
	if served <= 0 {
		return
	}
	w := proc.RequestWork(before, after, pattern) // the counts (counts.go: exact per completed request)
	if w.Requests <= 0 {
		// A server that counts no requests (a source's original, counted
		// at the databases): its work divides by the driver's responses.
		w.Requests = served
	}
	r.ExactCounts, r.Served = w.Exact, w.Requests
	r.PerRequest.DBQueries = w.Per(w.DBQueries)
	r.PerRequest.RedisBytes = w.Per(w.RedisBytes)
	// CPU is spent, not counted per request: the window's edges stay in it.
	r.PerRequest.ServerCPUus = proc.Delta(before, after, "process_cpu_seconds_total") * 1e6 / served
	for k, x := range extras(before, after, pattern, served, w) {
		if r.Extra == nil {
			r.Extra = map[result.Key]float64{}
		}
		r.Extra[k] = x
	}
	result.FlagClientBound(r, plan)
}

// recordDatabaseCPU records the database's CPU over the variant, from
// db0 seconds when the window opened (lead seconds earlier, when the
// row's first request was sent) to now (after the settle), per event:
// a write variant's events are the ones it accepted and persisted, a read
// variant's its requests. Nothing when the variant does not read it.
func recordDatabaseCPU(r *result.Run, v Variant, db0, lead float64) {
	if v.DatabaseCPU == nil {
		return
	}
	cpuS := v.DatabaseCPU() - db0
	events := r.Extra[result.Persisted]
	if events == 0 {
		events = r.Served
	}
	DatabaseCPU(r, cpuS, lead+r.DurationS+r.Extra[result.AdditionalS], events)
}

// DatabaseCPU records what the database's processes spent (cpuS seconds)
// over busyS seconds of work for events events: per event, in µs
// (db_cpu_us_per_doc), and as a share of one core (db_cpu_share, the
// author's "Mongo CPU" column of article B's repository). Nothing is
// recorded when the CPU was not measured.
func DatabaseCPU(r *result.Run, cpuS, busyS, events float64) {
	if cpuS <= 0 || events <= 0 || busyS <= 0 {
		return
	}
	if r.Extra == nil {
		r.Extra = map[result.Key]float64{}
	}
	r.Extra[result.DBCPUusPerDoc] = cpuS * 1e6 / events
	r.Extra[result.DBCPUShare] = cpuS / busyS
}

// settleStall ends settle early when persisted stops moving: the batcher
// retries a failing database with a backoff of at most 2 s, so 30 s without
// progress is not a slow flush.
const settleStall = 30 * time.Second

// settle polls the server until persisted + rejected == accepted (an
// event the database refused for good is dead-lettered, not persisted,
// and never will be), then reports the
// write side: the additional time after the load, events persisted per
// second over the whole work, and database round trips per request. The
// round trips are mostly a batcher's, on no request's behalf, so they are
// the global counters, read once nothing is in flight: before the row's
// first request (settleRow), every accepted event persisted, and divided
// by the requests the server counted by then, those before the window
// opened and after it closed included, since their events' writes are in
// the count.
// An original counts no requests of its own (accepted ≥ 0): there they
// are the driver's answered requests, and the round trips MongoDB's
// serverStatus counted, a division of ours on both stacks' counts.
func settle(ctx context.Context, read func(context.Context) (proc.Counters, error), before proc.Counters, route string, accepted float64, r *result.Run) error {
	start := time.Now()
	deadline := start.Add(3 * time.Minute)
	last, moved := -1.0, start // persisted, and when it last grew
	poll := 10 * time.Millisecond
	if accepted >= 0 {
		poll = 250 * time.Millisecond // counted at MongoDB: each reading is a count there
	}
	for {
		c, err := read(ctx)
		if err != nil {
			return err
		}
		if c[servicestats.EventsUnread] > 0 { // an original's database too busy to count yet: not a stall
			moved = time.Now()
			if time.Now().After(deadline) {
				return errors.New(messages.T("load.not_counted", r.Variant))
			}
			time.Sleep(poll)
			continue
		}
		if accepted >= 0 { // counted by the driver: as if the server had
			c["peakload_events_accepted_total"] = before["peakload_events_persisted_total"] + before["peakload_events_rejected_total"] + accepted
			before["peakload_events_accepted_total"] = before["peakload_events_persisted_total"] + before["peakload_events_rejected_total"]
			// and the requests it served: the ones the driver got a 2xx
			// for, each one event, so that MongoDB's count of inserts
			// (serverStatus) per request is the round trips, as a Go
			// server's per-route count makes them.
			served := "peakload_http_requests_total{route=" + route + "}"
			c[served], before[served] = accepted, 0
		}
		done := c["peakload_events_persisted_total"] + c["peakload_events_rejected_total"]
		if done != last {
			last, moved = done, time.Now()
		}
		if done >= c["peakload_events_accepted_total"] {
			settled(r, before, c, route, time.Since(start).Seconds())
			return nil
		}
		if time.Since(moved) > settleStall {
			return fmt.Errorf("%s: %.0f events accepted, %.0f persisted, and that count has not moved for %s: "+
				"either the write does not add to metrics.EventsPersisted (step 7: your Reduce must), or the database "+
				"is stuck (the server's log says; FerretDB: make down, make up)", r.Variant,
				c["peakload_events_accepted_total"], c["peakload_events_persisted_total"], settleStall)
		}
		if time.Now().After(deadline) {
			return errors.New(messages.T("load.not_persisted", r.Variant,
				c["peakload_events_accepted_total"], c["peakload_events_persisted_total"]))
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(poll):
		}
	}
}

// settled records the write side into r once every accepted event is
// persisted or refused for good, extra seconds after the load: before and
// after are the counters around the whole work.
func settled(r *result.Run, before, after proc.Counters, route string, extra float64) {
	if r.Extra == nil {
		r.Extra = map[result.Key]float64{}
	}
	persisted := proc.Delta(before, after, "peakload_events_persisted_total")
	r.Extra[result.AdditionalS] = extra
	r.Extra[result.Accepted] = proc.Delta(before, after, "peakload_events_accepted_total")
	r.Extra[result.Persisted] = persisted
	if rejected := proc.Delta(before, after, "peakload_events_rejected_total"); rejected > 0 {
		r.Extra[result.Rejected] = rejected // dead-lettered: the database refused them for good
	}
	r.Extra[result.PersistedPerS] = persisted / (r.DurationS + extra)
	r.Extra[result.AcceptedPerS] = r.Extra[result.Accepted] / r.DurationS
	if served := proc.Delta(before, after, "peakload_http_requests_total{route="+route+"}"); served > 0 {
		r.Extra[result.DBRoundTripsPerReq] = (proc.Delta(before, after, "peakload_mongo_commands_total{cmd=insert}") +
			proc.Delta(before, after, "peakload_mongo_commands_total{cmd=update}")) / served
		if _, ok := after["peakload_db_writes_total"]; ok {
			r.Extra[result.DBWritesPerReq] = proc.Delta(before, after, "peakload_db_writes_total") / served
		}
	}
}

// applied is what a variant's writes had done at one moment: applied at
// the database (Variant.Applied), acknowledged by the server (its count
// of persisted events) and accepted by it.
type applied struct{ db, acked, accepted float64 }

// readApplied reads both counts of v's writes; nothing when v does not
// count at the database. Read before the load starts and after the
// settle, nothing is in flight at either end: the two increases cover
// the same writes (the window's start mark comes after the users' first
// requests, so the server's deltas from it would not).
func readApplied(ctx context.Context, o Options, v Variant) (applied, error) {
	if !v.Settle || v.Applied == nil {
		return applied{}, nil
	}
	db, err := v.Applied(ctx)
	if err != nil {
		return applied{}, fmt.Errorf("%s: count at the database: %w", v.Name, err)
	}
	read := func(ctx context.Context) (proc.Counters, error) { return proc.Scrape(ctx, o.Target) }
	if o.Counters != nil {
		read = o.Counters
	}
	c, err := read(ctx)
	if err != nil {
		return applied{}, fmt.Errorf("%s: the server's count of its writes: %w", v.Name, err)
	}
	return applied{db: db, acked: c["peakload_events_persisted_total"], accepted: c["peakload_events_accepted_total"]}, nil
}

// countApplied makes the database's count the row's record, read once the
// settle is over: persisted is what the database gained since a0,
// acknowledged what the server counted as persisted over the same span
// (and accepted, what it accepted then: the settle's count starts at the
// window's mark), and lost_acknowledged their difference when the
// database holds less. Nothing when v does not count at the database.
func countApplied(ctx context.Context, o Options, v Variant, a0 applied, r *result.Run) error {
	if v.Applied == nil {
		return nil
	}
	a1, err := readApplied(ctx, o, v)
	if err != nil {
		return err
	}
	acked, persisted := a1.acked-a0.acked, a1.db-a0.db
	r.Extra[result.Acknowledged], r.Extra[result.Persisted] = acked, persisted
	r.Extra[result.Accepted] = a1.accepted - a0.accepted
	r.Extra[result.PersistedPerS] = persisted / (r.DurationS + r.Extra[result.AdditionalS])
	if lost := acked - persisted; lost > 0 {
		r.Extra[result.LostAcknowledged] = lost
	}
	return nil
}

// extras are the step-specific counters, per request or as ratios; only
// the ones a run moved are kept. A figure counted per request served is
// declared with its counter in result.CountedPerServed, not here.
func extras(before, after proc.Counters, route string, served float64, w proc.Work) map[result.Key]float64 {
	d := func(key string) float64 { return proc.Delta(before, after, key) }
	x := map[result.Key]float64{}
	ratio := func(name result.Key, hit, miss string) {
		if h, m := d(hit), d(miss); h+m > 0 {
			x[name] = h / (h + m)
		}
	}
	ratio(result.RedisHitRatio, "peakload_cache_lookups_total{result=hit,tier=redis}", "peakload_cache_lookups_total{result=miss,tier=redis}")
	ratio(result.MemoryHitRatio, "peakload_cache_lookups_total{result=hit,tier=memory}", "peakload_cache_lookups_total{result=miss,tier=memory}")
	if g := w.Per(w.RedisGets); g > 0 {
		x[result.RedisGetsPerReq] = g
	}
	if q := d("peakload_db_queries_total"); q > 0 {
		x[result.DBQueriesInWindow] = q // every query sent, by requests or not (step 4's per expiry)
	}
	for name, counter := range result.CountedPerServed {
		if v := d(strings.ReplaceAll(counter, result.Route, route)); v > 0 {
			x[name] = v / served
		}
	}
	if len(x) == 0 {
		return nil
	}
	return x
}

// cpuEdge is what the CPUs had done when a window opened or closed.
type cpuEdge struct {
	busy     map[int]float64 // per CPU, busy seconds since boot (proc.CPUBusy)
	services float64         // the databases' CPU seconds
	at       time.Time
}

// readEdge reads the CPUs at a window's edge; nothing when the databases'
// CPU cannot be read (o.ServicesCPU nil).
func readEdge(o Options) cpuEdge {
	if o.ServicesCPU == nil {
		return cpuEdge{}
	}
	return cpuEdge{busy: proc.CPUBusy(), services: o.ServicesCPU(), at: time.Now()}
}

// otherCPU is the share of the plan's CPUs other processes took between
// the edges (result.CPUPlan.OtherShare): the CPUs' busy time minus the
// server's (serverS, its own counter), the load tool's and this process's
// (selfS: the Go driver, the scrapes), and the databases'. 0 when not
// measured, or when the server's CPU is unknown (a server without the
// process counter): every second of it would read as a neighbour's.
func otherCPU(win [2]cpuEdge, plan result.CPUPlan, r result.Run, selfS, serverS float64) float64 {
	if win[0].busy == nil || win[1].busy == nil || serverS <= 0 {
		return 0
	}
	driver := selfS
	if r.Tool == "wrk" || r.Tool == "k6" { // a process of its own: ClientCPUus is its CPU
		driver += r.ClientCPUus * float64(r.Requests) / 1e6
	}
	w := result.WindowCPU{Busy: map[int]float64{}, Seconds: win[1].at.Sub(win[0].at).Seconds(),
		Server: serverS, Driver: driver, Services: win[1].services - win[0].services}
	for c, s := range win[1].busy {
		w.Busy[c] = s - win[0].busy[c]
	}
	return plan.OtherShare(w)
}

// lockWait records the goroutines blocked on a lock, on average over the
// window: the server's seconds of lock wait over the window's. Logins
// serialised behind one lock read about VUs − 1 (all but the one holding
// it); a lock held only around a map update, about 0. The Go runtime
// counts it always, but samples one wait in 8 and adds a wait when it
// ends (a wait begun in the warm-up counts whole): over a few requests it
// can read far above VUs (65 for 20 users in a QUICK run), over many it
// averages out. Nothing when the server does not count it.
func lockWait(r *result.Run, before, after proc.Counters) {
	const key = "peakload_lock_wait_seconds_total"
	if _, ok := after[key]; !ok || r.DurationS <= 0 {
		return
	}
	if r.Extra == nil {
		r.Extra = map[result.Key]float64{}
	}
	r.Extra[result.LockWaiting] = proc.Delta(before, after, key) / r.DurationS
}
