package drill

import (
	"context"
	"fmt"
	"io"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/peakload/workshop/internal/harness/proc"
	"github.com/peakload/workshop/internal/harness/result"
)

// Writes is the write-path drill of steps 6 and 7: load on the step
// server; optionally its MongoDB killed (SIGKILL) and restarted; then
// SIGTERM to the server while the load goes on; then what is stored is
// counted and compared with what the clients were told was accepted.
type Writes struct {
	Mongo   *Mongo
	Server  func(ctx context.Context, mongoURL string) (*proc.Proc, error) // starts the step server
	Clients int
	Request Request
	// Persisted counts what the database holds at the end.
	Persisted func(ctx context.Context, mongoURL string) (int64, error)
	// Phase is how long the load runs before each disturbance (and while
	// the database is down).
	Phase      time.Duration
	KillMongo  bool
	Idempotent bool      // retries are absorbed (events by _id, counters by batch number)
	Poison     *Poison   // step 6: events the database refuses for good, before SIGTERM
	Guard      string    // what absorbs them, for the report
	Progress   io.Writer // a line per phase, as it happens
}

// Report is what a write drill measured.
type Report struct {
	Accepted, Persisted       int64
	Duplicates                float64 // retried events found already stored
	Rejected, RetryAfter      int64   // 503s, and those that said when to come back
	ServerErrors              int64   // other 5xx
	Retries                   float64 // flushes retried after a database error
	MaxQueue                  float64 // most events waiting in memory at once
	MongoDown, Recover, Drain time.Duration
	KillMongo, Idempotent     bool
	// The poison phase: events sent that the database refuses for good,
	// those dead-lettered (counted in the database), how long until the
	// server had set them all aside, and the rejected counter.
	Poisoned, DeadLettered int64
	SetAside               time.Duration
	PoisonPhase            bool
	Guard                  string // what absorbs a retry (Idempotent)
	// Series is the drill four times a second: writes refused while MongoDB
	// is down, the buffer filling, the flush after SIGTERM.
	Series *result.Series
}

// OK is the verdict: everything acknowledged is stored — once, where the
// writes are idempotent (events with their _id; counters through
// counters.Idempotent). Unguarded $inc would be at-least-once: a flush
// retried after a lost acknowledgement applies twice, which the report
// shows but does not count as a loss.
func (r Report) OK() bool {
	if r.Accepted == 0 || r.ServerErrors > 0 {
		return false
	}
	if r.Idempotent {
		return r.Persisted+r.DeadLettered == r.Accepted
	}
	return r.Persisted+r.DeadLettered >= r.Accepted
}

// Run runs the drill.
func (d Writes) Run(ctx context.Context) (Report, error) {
	rep := Report{KillMongo: d.KillMongo, Idempotent: d.Idempotent, Guard: d.Guard}
	say := sayer(d.Progress)
	dr, err := startDrive(ctx, func() (*proc.Proc, error) { return d.Server(ctx, d.Mongo.URL) }, d.Clients, d.Request)
	if err != nil {
		return rep, err
	}
	defer dr.stop(ctx)
	srv, watch, series, load := dr.srv, dr.watch, dr.series, dr.load
	say("load: %d clients", d.Clients)
	sleep(ctx, d.Phase)
	if d.KillMongo {
		if err := d.killMongo(ctx, dr, &rep, say); err != nil {
			return rep, err
		}
	}
	var poisonAccepted int64
	if d.Poison != nil {
		if poisonAccepted, err = d.poison(ctx, srv.Target, watch, &rep, say); err != nil {
			return rep, err
		}
	}
	say("SIGTERM to the server — %d accepted so far, load still on", load.Accepted.Load()+poisonAccepted)
	t0 := time.Now()
	series.Event("SIGTERM")
	if err := srv.Signal(syscall.SIGTERM); err != nil {
		return rep, err
	}
	if err := srv.Wait(90 * time.Second); err != nil {
		return rep, fmt.Errorf("the server did not exit cleanly within 90 s of SIGTERM: %w\n%s", err, srv.Log(10))
	}
	rep.Drain = time.Since(t0)
	say("server exited %.2f s after SIGTERM (stop accepting, finish requests, flush)", rep.Drain.Seconds())
	series.Event("server exited")
	load.Stop()
	watch.Stop()
	rep.Series = series.Finish(ctx)
	rep.tally(dr, poisonAccepted)
	if rep.Persisted, err = d.Persisted(ctx, d.Mongo.URL); err != nil {
		return rep, fmt.Errorf("count what is stored: %w", err)
	}
	if d.Poison != nil {
		if rep.DeadLettered, err = DeadLettered(ctx, d.Mongo.URL); err != nil {
			return rep, fmt.Errorf("count the dead letters: %w", err)
		}
	}
	return rep, nil
}

// killMongo kills MongoDB under load, restarts it after a phase, and
// measures how long until a write is persisted again.
func (d Writes) killMongo(ctx context.Context, dr *drive, rep *Report, say func(string, ...any)) error {
	say("MongoDB killed (SIGKILL) — %d accepted so far", dr.load.Accepted.Load())
	t0 := time.Now()
	dr.series.Event("MongoDB killed")
	d.Mongo.Kill()
	sleep(ctx, d.Phase)
	if err := d.Mongo.Start(ctx); err != nil {
		return fmt.Errorf("restart MongoDB: %w", err)
	}
	rep.MongoDown = time.Since(t0)
	dr.series.Event("MongoDB restarted")
	persisted := dr.watch.Last()["peakload_events_persisted_total"]
	say("MongoDB restarted after %.1f s — %d accepted, %d told to retry later", rep.MongoDown.Seconds(), dr.load.Accepted.Load(), dr.load.Rejected.Load())
	if took, ok := dr.watch.Until(func(c proc.Counters) bool { return c["peakload_events_persisted_total"] > persisted }, 30*time.Second); ok {
		rep.Recover = took
		say("writes flowing again %.1f s after the restart", took.Seconds())
	} else {
		say("no write persisted within 30 s of the restart")
	}
	sleep(ctx, d.Phase)
	return nil
}

// tally copies what the clients were told and the server's last counters
// into the report, once the load and the watch have stopped.
func (rep *Report) tally(dr *drive, poisonAccepted int64) {
	last := dr.watch.Last()
	rep.Accepted, rep.Rejected, rep.RetryAfter, rep.ServerErrors = dr.load.Accepted.Load()+poisonAccepted, dr.load.Rejected.Load(), dr.load.RetryAfter.Load(), dr.load.ServerErrs.Load()
	rep.Duplicates, rep.Retries = last["peakload_events_duplicates_total"], last["peakload_batch_flush_retries_total"]
	rep.MaxQueue = dr.watch.Max("peakload_batch_queue_depth")
}

// poison runs the poison phase with the load still on, and waits (up to
// 10 s) until the server has set every refused event aside.
func (d Writes) poison(ctx context.Context, target string, watch *Watch, rep *Report, say func(string, ...any)) (int64, error) {
	if err := d.Poison.Prepare(ctx, d.Mongo.URL); err != nil {
		return 0, fmt.Errorf("poison: unique index: %w", err)
	}
	rejected := watch.Last()["peakload_events_rejected_total"]
	t0 := time.Now()
	accepted, err := d.Poison.Send(ctx, target)
	if err != nil {
		return accepted, err
	}
	rep.PoisonPhase, rep.Poisoned = true, int64(d.Poison.Orders)
	say("poison: %d orders sent twice (%d accepted); the second copy of each is a duplicate on a unique index", d.Poison.Orders, accepted)
	if took, ok := watch.Until(func(c proc.Counters) bool {
		return c["peakload_events_rejected_total"]-rejected >= float64(d.Poison.Orders)
	}, 10*time.Second); ok {
		rep.SetAside = time.Since(t0)
		say("poison: all %d set aside %.2f s after the first was sent (%.2f s after the last)", d.Poison.Orders, rep.SetAside.Seconds(), took.Seconds())
	} else {
		say("poison: not all %d refused events set aside within 10 s: are they retried?", d.Poison.Orders)
	}
	return accepted, nil
}

// Print writes the report as a table and the verdict.
func (r Report) Print(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	row := func(k, v, why string) { fmt.Fprintf(tw, "  %s\t%s\t%s\n", k, v, why) }
	row("accepted (2xx)", fmt.Sprint(r.Accepted), "acknowledged to clients")
	row("persisted", fmt.Sprint(r.Persisted), "counted in the database afterwards")
	if r.Idempotent {
		guard := r.Guard
		if guard == "" {
			guard = "retried writes found already applied: made no-ops"
		}
		row("duplicates absorbed", fmt.Sprintf("%.0f", r.Duplicates), guard)
	} else {
		row("duplicates absorbed", "n/a", "$inc is not idempotent: a retry after a lost acknowledgement counts twice")
	}
	row("flush retries", fmt.Sprintf("%.0f", r.Retries), "batches written again after a database error")
	row("503 + Retry-After", fmt.Sprintf("%d of %d", r.RetryAfter, r.Rejected), "buffer full (or closing): come back later, nothing lost")
	row("other 5xx", fmt.Sprint(r.ServerErrors), "")
	if r.PoisonPhase {
		row("dead-lettered", fmt.Sprint(r.DeadLettered), fmt.Sprintf("refused for good (%d orders sent twice: one checkout per order), set aside, never retried", r.Poisoned))
		row("set aside after", fmt.Sprintf("%.2f s", r.SetAside.Seconds()), "from the first poison event sent to the last one dead-lettered")
	}
	row("max queue depth", fmt.Sprintf("%.0f", r.MaxQueue), "events waiting in memory at once (bounded by Capacity)")
	if r.KillMongo {
		row("MongoDB down", fmt.Sprintf("%.1f s", r.MongoDown.Seconds()), "killed with SIGKILL, then restarted")
		row("writes again after", fmt.Sprintf("%.1f s", r.Recover.Seconds()), "from the restart to the next persisted write (retry backoff)")
	}
	row("time to drain", fmt.Sprintf("%.2f s", r.Drain.Seconds()), "SIGTERM → exit: stop accepting, finish requests, flush the buffer")
	tw.Flush()
	switch {
	case r.OK() && r.DeadLettered > 0:
		fmt.Fprintf(w, "\n  verdict: persisted %d + dead-lettered %d == accepted %d: nothing acknowledged was lost, written twice or retried for ever\n",
			r.Persisted, r.DeadLettered, r.Accepted)
	case r.OK() && r.Persisted == r.Accepted:
		fmt.Fprintf(w, "\n  verdict: persisted == accepted (%d): nothing acknowledged was lost or written twice\n", r.Persisted)
	case r.OK():
		fmt.Fprintf(w, "\n  verdict: nothing lost (accepted %d), but %d increments applied TWICE (persisted %d): at-least-once —\n"+
			"           a flush cut by the crash got in, its acknowledgement did not, and the retry applied it again\n",
			r.Accepted, r.Persisted-r.Accepted, r.Persisted)
	case r.Persisted < r.Accepted:
		fmt.Fprintf(w, "\n  verdict: LOST %d of %d acknowledged writes (persisted %d ≠ accepted %d)\n", r.Accepted-r.Persisted, r.Accepted, r.Persisted, r.Accepted)
	case r.Persisted > r.Accepted:
		fmt.Fprintf(w, "\n  verdict: %d writes applied TWICE (persisted %d ≠ accepted %d): a retried flush whose first attempt got in\n", r.Persisted-r.Accepted, r.Persisted, r.Accepted)
	default:
		fmt.Fprintf(w, "\n  verdict: NOT proven (accepted %d, other 5xx %d)\n", r.Accepted, r.ServerErrors)
	}
}

func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// sayer prints a drill's timestamped progress lines to w (nowhere if nil).
func sayer(w io.Writer) func(format string, a ...any) {
	return func(f string, a ...any) {
		if w != nil {
			fmt.Fprintf(w, "  %s  "+f+"\n", append([]any{time.Now().Format("15:04:05.0")}, a...)...)
		}
	}
}
