package drill

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/peakload/workshop/internal/harness/proc"
	"github.com/peakload/workshop/internal/harness/result"
)

// Redis is a private redis-server on a free port, without persistence,
// that a drill stops and restarts.
type Redis struct {
	Addr string
	bin  string
	cmd  *exec.Cmd
	done chan struct{}
}

// StartRedis starts a private server from the redis-server binary.
func StartRedis(ctx context.Context, bin string) (*Redis, error) {
	addr, err := FreeAddr()
	if err != nil {
		return nil, err
	}
	r := &Redis{Addr: addr, bin: bin}
	return r, r.Start(ctx)
}

// Start (re)starts the server and waits until it answers PING.
func (r *Redis) Start(ctx context.Context) error {
	host, port, _ := strings.Cut(r.Addr, ":")
	cmd := exec.Command(r.bin, "--port", port, "--bind", host, "--save", "", "--appendonly", "no", "--loglevel", "warning")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start private redis-server: %w", err)
	}
	r.cmd, r.done = cmd, make(chan struct{})
	go func(done chan struct{}) { _ = cmd.Wait(); close(done) }(r.done)
	rdb := redis.NewClient(&redis.Options{Addr: r.Addr, MaxRetries: -1})
	defer rdb.Close()
	deadline := time.Now().Add(10 * time.Second)
	for rdb.Ping(ctx).Err() != nil {
		if time.Now().After(deadline) || ctx.Err() != nil {
			r.Stop()
			return fmt.Errorf("private redis-server on %s did not answer within 10 s", r.Addr)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return nil
}

// Stop stops the server (SIGTERM; its cache is gone with it).
func (r *Redis) Stop() {
	if r.cmd == nil {
		return
	}
	_ = r.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-r.done:
	case <-time.After(5 * time.Second):
		_ = r.cmd.Process.Kill()
		<-r.done
	}
}

// Reads is the read-path drill of step 2: load on the cached route, Redis
// stopped in the middle and started again. The cache must fail open: every
// read still answered, from the database, and Redis used again once back.
type Reads struct {
	Redis    *Redis
	Server   func(ctx context.Context, redisAddr string) (*proc.Proc, error)
	Clients  int
	Request  Request
	Phase    time.Duration
	Progress io.Writer
}

// ReadPhase is one stretch of the drill, from the server's counters.
type ReadPhase struct {
	Name                      string
	Seconds                   float64
	Requests, ServerErrors    int64
	FailOpenPerReq, DBQPerReq float64
	RedisHitRatio             float64
}

// ReadReport is what a read drill measured.
type ReadReport struct {
	Phases  []ReadPhase
	Recover time.Duration // from Redis's restart to its first hit
	// Series is the drill four times a second: the dip when Redis stops,
	// the reads failing open to PostgreSQL, the recovery.
	Series *result.Series
}

// seriesEvery is the drill's interval: its phases last seconds, and the
// recovery takes a fraction of one.
const seriesEvery = 250 * time.Millisecond

// OK is the verdict: no 5xx in any phase, and reads served while Redis was down.
func (r ReadReport) OK() bool {
	for _, p := range r.Phases {
		if p.ServerErrors > 0 || p.Requests == 0 {
			return false
		}
	}
	return len(r.Phases) == 3
}

// Run runs the drill.
func (d Reads) Run(ctx context.Context) (ReadReport, error) {
	var rep ReadReport
	say := sayer(d.Progress)
	dr, err := startDrive(ctx, func() (*proc.Proc, error) { return d.Server(ctx, d.Redis.Addr) }, d.Clients, d.Request)
	if err != nil {
		return rep, err
	}
	defer dr.stop(ctx)
	srv, watch, series, load := dr.srv, dr.watch, dr.series, dr.load
	sleep(ctx, d.Phase/2) // warm the cache before the first phase counts
	series.Mark("start")
	mark := func() (proc.Counters, int64, int64, time.Time, error) {
		c, err := proc.Scrape(ctx, srv.Target)
		return c, load.Requests.Load(), load.Rejected.Load() + load.ServerErrs.Load(), time.Now(), err
	}
	phase := func(name string, c0 proc.Counters, n0, e0 int64, t0 time.Time) error {
		c1, n1, e1, t1, err := mark()
		if err != nil {
			return err
		}
		served := proc.Delta(c0, c1, "peakload_http_requests_total")
		per := func(key string) float64 {
			if served == 0 {
				return 0
			}
			return proc.Delta(c0, c1, key) / served
		}
		hit := proc.Delta(c0, c1, "peakload_cache_lookups_total{result=hit,tier=redis}")
		miss := proc.Delta(c0, c1, "peakload_cache_lookups_total{result=miss,tier=redis}")
		p := ReadPhase{Name: name, Seconds: t1.Sub(t0).Seconds(), Requests: n1 - n0, ServerErrors: e1 - e0,
			FailOpenPerReq: per("peakload_cache_fail_open_total"), DBQPerReq: per("peakload_db_queries_total")}
		if hit+miss > 0 {
			p.RedisHitRatio = hit / (hit + miss)
		}
		rep.Phases = append(rep.Phases, p)
		return nil
	}
	say("load: %d clients on the cached route", d.Clients)
	c0, n0, e0, t0, err := mark()
	if err != nil {
		return rep, err
	}
	sleep(ctx, d.Phase)
	if err := phase("Redis up", c0, n0, e0, t0); err != nil {
		return rep, err
	}
	say("Redis stopped")
	series.Event("Redis stopped")
	d.Redis.Stop()
	c0, n0, e0, t0, _ = mark()
	sleep(ctx, d.Phase)
	if err := phase("Redis down", c0, n0, e0, t0); err != nil {
		return rep, err
	}
	if err := d.Redis.Start(ctx); err != nil {
		return rep, err
	}
	c0, n0, e0, t0, _ = mark()
	hits := c0["peakload_cache_lookups_total{result=hit,tier=redis}"]
	say("Redis started again (empty)")
	series.Event("Redis started (empty)")
	if took, ok := watch.Until(func(c proc.Counters) bool {
		return c["peakload_cache_lookups_total{result=hit,tier=redis}"] > hits
	}, 30*time.Second); ok {
		rep.Recover = took
		say("first Redis hit %.2f s after the restart", took.Seconds())
	}
	sleep(ctx, d.Phase-time.Since(t0))
	if err := phase("Redis back", c0, n0, e0, t0); err != nil {
		return rep, err
	}
	series.Mark("end")
	rep.Series = series.Finish(ctx)
	return rep, nil
}

// Print writes the phases as a table and the verdict.
func (r ReadReport) Print(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "  phase\tseconds\trequests\treq/s\t5xx\tfail-open/req\tDB queries/req\tRedis hit ratio\t")
	for _, p := range r.Phases {
		fmt.Fprintf(tw, "  %s\t%.1f\t%d\t%.0f\t%d\t%.2f\t%.2f\t%.2f\t\n", p.Name, p.Seconds, p.Requests, float64(p.Requests)/p.Seconds,
			p.ServerErrors, p.FailOpenPerReq, p.DBQPerReq, p.RedisHitRatio)
	}
	tw.Flush()
	fmt.Fprintf(w, "\n  time to recover: %.2f s from Redis's restart to its first hit\n", r.Recover.Seconds())
	if r.OK() {
		fmt.Fprintln(w, "  verdict: 0 5xx — with Redis down every read failed open to PostgreSQL, and the cache came back by itself")
	} else {
		fmt.Fprintln(w, "  verdict: FAILED — reads answered 5xx (or none were served) while Redis was down")
	}
}
