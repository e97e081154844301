// Package stalewindow measures the stale window of a change: how long after a
// write returned each reader (a replica) still served the old version.
// Step 10's check measures its replicas in one process with it, and the
// step's bench its replicas behind HAProxy: one loop, so the check and the
// bench table mean the same by "stale".
package stalewindow

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"
)

// Read returns the version a reader serves now (an item's ETag).
type Read func(ctx context.Context) (string, error)

// Poll says how the readers are watched.
type Poll struct {
	// Pause is each reader's rest between two reads: pacing, not a wait.
	Pause time.Duration
	// Limit ends the watch: a reader still serving the old version this
	// long after the write returned is given Limit.
	Limit time.Duration
}

// Limit is the watch for items kept in memory for ttl: three TTLs, and a
// second of slack on a busy machine. A reader that keeps the old version
// longer is not expiring its copies at all.
func Limit(ttl time.Duration) time.Duration { return 3*ttl + time.Second }

// Result is what one write's watch found.
type Result struct {
	// Stale is, per reader, how long after the write returned it last
	// served the old version (0: not once).
	Stale []time.Duration
	// Polls counts the reads made while watching.
	Polls int64
}

// Measure reads the version every reader serves (each holds the item in
// memory then), calls write, and once it returns reads every reader again
// in a loop. It returns once each reader serves a new version, or the
// limit has passed. A failed read ends that reader's watch and is in the
// error; a failed write is the error.
//
// No read runs while write does: a read that misses memory then loads the
// row, and a load in flight across the write can put the old row back into
// Redis after the write's DEL (cache-aside's own race, which step 10 does
// not teach): every replica would reload it until Redis's TTL, whatever
// the answer. A read during the write would measure nothing either — the
// stale window runs from when the write returned.
func Measure(ctx context.Context, readers []Read, write func(context.Context) error, p Poll) (Result, error) {
	old := make([]string, len(readers))
	for i, read := range readers {
		v, err := read(ctx)
		if err != nil {
			return Result{}, err
		}
		old[i] = v
	}
	if err := write(ctx); err != nil {
		return Result{}, err
	}
	w := watch{old: old, at: time.Now(), limit: p.Limit, pause: p.Pause, stale: make([]time.Duration, len(readers))}
	errs := make([]error, len(readers))
	var wg sync.WaitGroup
	for i, read := range readers {
		wg.Go(func() { errs[i] = w.follow(ctx, i, read) })
	}
	wg.Wait()
	return Result{Stale: w.stale, Polls: w.polls.Load()}, errors.Join(errs...)
}

// watch is what the readers share: the versions before the write, when
// the write returned, and what they found.
type watch struct {
	old          []string
	at           time.Time
	limit, pause time.Duration
	polls        atomic.Int64
	stale        []time.Duration
}

// follow is reader i's loop after the write returned. A read that serves
// a new version ends it; the last read of the old version before then
// says how long the reader was stale.
func (w *watch) follow(ctx context.Context, i int, read Read) error {
	var lastOld time.Time
	for {
		start := time.Now()
		v, err := read(ctx)
		w.polls.Add(1)
		if ctx.Err() != nil {
			return ctx.Err() // the caller's ctx ended
		}
		if err != nil {
			return err
		}
		if v != w.old[i] {
			if !lastOld.IsZero() {
				w.stale[i] = lastOld.Sub(w.at)
			}
			return nil
		}
		lastOld = start
		// Judged by when the read started, not by now: a reader held off
		// the CPU after an old read (a busy machine) proves nothing, one
		// that started past the limit and still got the old version does.
		if start.Sub(w.at) > w.limit {
			w.stale[i] = w.limit
			return nil
		}
		time.Sleep(w.pause)
	}
}
