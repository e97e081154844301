package drill

import (
	"context"
	"fmt"
	"io"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/peakload/workshop/internal/given/messages"
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
	say("drill.say.load", d.Clients)
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
	say("drill.say.sigterm", load.Accepted.Load()+poisonAccepted)
	t0 := time.Now()
	series.Event("SIGTERM")
	if err := srv.Signal(syscall.SIGTERM); err != nil {
		return rep, err
	}
	if err := srv.Wait(90 * time.Second); err != nil {
		return rep, fmt.Errorf("the server did not exit cleanly within 90 s of SIGTERM: %w\n%s", err, srv.Log(10))
	}
	rep.Drain = time.Since(t0)
	say("drill.say.exited", rep.Drain.Seconds())
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
	say("drill.say.mongo_killed", dr.load.Accepted.Load())
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
	say("drill.say.mongo_back", rep.MongoDown.Seconds(), dr.load.Accepted.Load(), dr.load.Rejected.Load())
	if took, ok := dr.watch.Until(func(c proc.Counters) bool { return c["peakload_events_persisted_total"] > persisted }, 30*time.Second); ok {
		rep.Recover = took
		say("drill.say.flowing", took.Seconds())
	} else {
		say("drill.say.not_flowing")
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
	say("drill.say.poison_sent", d.Poison.Orders, accepted)
	if took, ok := watch.Until(func(c proc.Counters) bool {
		return c["peakload_events_rejected_total"]-rejected >= float64(d.Poison.Orders)
	}, 10*time.Second); ok {
		rep.SetAside = time.Since(t0)
		say("drill.say.poison_aside", d.Poison.Orders, rep.SetAside.Seconds(), took.Seconds())
	} else {
		say("drill.say.poison_stuck", d.Poison.Orders)
	}
	return accepted, nil
}

// Print writes the report as a table and the verdict.
func (r Report) Print(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	// row prints a row named by key, its why by "drill.why."+key's suffix.
	row := func(key, v, why string) { fmt.Fprintf(tw, "  %s\t%s\t%s\n", messages.T("drill.row."+key), v, why) }
	why := func(key string, args ...any) string { return messages.T("drill.why."+key, args...) }
	row("accepted", fmt.Sprint(r.Accepted), why("accepted"))
	row("persisted", fmt.Sprint(r.Persisted), why("persisted"))
	if r.Idempotent {
		guard := r.Guard
		if guard == "" {
			guard = why("duplicates")
		}
		row("duplicates", fmt.Sprintf("%.0f", r.Duplicates), guard)
	} else {
		row("duplicates", "n/a", why("not_idempotent"))
	}
	row("retries", fmt.Sprintf("%.0f", r.Retries), why("retries"))
	fmt.Fprintf(tw, "  503 + Retry-After\t%s\t%s\n", messages.T("drill.of", r.RetryAfter, r.Rejected), why("retry_after"))
	row("other_5xx", fmt.Sprint(r.ServerErrors), "")
	if r.PoisonPhase {
		row("dead_lettered", fmt.Sprint(r.DeadLettered), why("dead_lettered", r.Poisoned))
		row("set_aside", fmt.Sprintf("%.2f s", r.SetAside.Seconds()), why("set_aside"))
	}
	row("max_queue", fmt.Sprintf("%.0f", r.MaxQueue), why("max_queue"))
	if r.KillMongo {
		row("mongo_down", fmt.Sprintf("%.1f s", r.MongoDown.Seconds()), why("mongo_down"))
		row("writes_again", fmt.Sprintf("%.1f s", r.Recover.Seconds()), why("writes_again"))
	}
	row("drain", fmt.Sprintf("%.2f s", r.Drain.Seconds()), why("drain"))
	tw.Flush()
	switch {
	case r.OK() && r.DeadLettered > 0:
		fmt.Fprint(w, messages.T("drill.verdict.dead_lettered", r.Persisted, r.DeadLettered, r.Accepted))
	case r.OK() && r.Persisted == r.Accepted:
		fmt.Fprint(w, messages.T("drill.verdict.exact", r.Persisted))
	case r.OK():
		fmt.Fprint(w, messages.T("drill.verdict.at_least_once", r.Accepted, r.Persisted-r.Accepted, r.Persisted))
	case r.Persisted < r.Accepted:
		fmt.Fprint(w, messages.T("drill.verdict.lost", r.Accepted-r.Persisted, r.Accepted, r.Persisted, r.Accepted))
	case r.Persisted > r.Accepted:
		fmt.Fprint(w, messages.T("drill.verdict.twice", r.Persisted-r.Accepted, r.Persisted, r.Accepted))
	default:
		fmt.Fprint(w, messages.T("drill.verdict.unproven", r.Accepted, r.ServerErrors))
	}
}

func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// sayer prints a drill's timestamped progress lines to w (nowhere if nil),
// each a message key of internal/given/messages in the run's language.
func sayer(w io.Writer) func(key string, a ...any) {
	return func(key string, a ...any) {
		if w != nil {
			fmt.Fprintf(w, "  %s  %s\n", time.Now().Format("15:04:05.0"), messages.T(key, a...))
		}
	}
}
