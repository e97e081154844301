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
// memory then), and while every reader reads it again in a loop, calls
// write. It returns once each reader serves a new version, or the limit
// has passed. A failed read ends that reader's watch and is in the error;
// a failed write stops every reader and is the error.
func Measure(ctx context.Context, readers []Read, write func(context.Context) error, p Poll) (Result, error) {
	old := make([]string, len(readers))
	for i, read := range readers {
		v, err := read(ctx)
		if err != nil {
			return Result{}, err
		}
		old[i] = v
	}
	w := watch{old: old, limit: p.Limit, pause: p.Pause, stale: make([]time.Duration, len(readers))}
	// The readers stop with rctx: a failed write stops them at once.
	rctx, stop := context.WithCancel(ctx)
	defer stop()
	errs := make([]error, len(readers))
	var wg sync.WaitGroup
	for i, read := range readers {
		wg.Go(func() { errs[i] = w.follow(rctx, i, read) })
	}
	time.Sleep(5 * time.Millisecond) // the readers are reading while write runs
	if err := write(ctx); err != nil {
		stop()
		wg.Wait()
		return Result{Polls: w.polls.Load()}, err
	}
	w.written(time.Now())
	wg.Wait()
	return Result{Stale: w.stale, Polls: w.polls.Load()}, errors.Join(errs...)
}

// watch is what the readers share: the versions before the write, when
// the write returned (zero while it runs), and what they found.
type watch struct {
	old          []string
	limit, pause time.Duration
	mu           sync.Mutex
	at           time.Time
	polls        atomic.Int64
	stale        []time.Duration
}

func (w *watch) written(at time.Time) { w.mu.Lock(); w.at = at; w.mu.Unlock() }

func (w *watch) writtenAt() time.Time { w.mu.Lock(); defer w.mu.Unlock(); return w.at }

// follow is reader i's loop. A read that starts after the write returned
// and serves a new version ends it; the last read of the old version
// before then says how long the reader was stale.
func (w *watch) follow(ctx context.Context, i int, read Read) error {
	var lastOld time.Time
	for {
		start := time.Now()
		v, err := read(ctx)
		w.polls.Add(1)
		if ctx.Err() != nil {
			return ctx.Err() // stopped (a failed write, or the caller's ctx)
		}
		if err != nil {
			return err
		}
		at := w.writtenAt()
		if v == w.old[i] {
			lastOld = start
		} else if !at.IsZero() && start.After(at) {
			if lastOld.After(at) {
				w.stale[i] = lastOld.Sub(at)
			}
			return nil
		}
		// Judged by when the read started, not by now: a reader held off
		// the CPU after an old read (a busy machine) proves nothing, one
		// that started past the limit and still got the old version does.
		if !at.IsZero() && start.Sub(at) > w.limit {
			w.stale[i] = w.limit
			return nil
		}
		time.Sleep(w.pause)
	}
}
