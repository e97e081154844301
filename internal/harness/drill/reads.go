package drill

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/peakload/workshop/internal/given/messages"
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
	// nil: an exit is told as silence, there being no message of its own.
	if awaitAnswer(ctx, nil, 10*time.Second, 20*time.Millisecond, func() error { return rdb.Ping(ctx).Err() }) != nil {
		r.Stop()
		return errors.New(messages.T("drill.redis_silent", r.Addr))
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
	sleep(ctx, d.Phase/2) // warm the cache before the first phase counts
	dr.series.Mark("start")
	// phase measures from m0 until now, as the phase called name.
	phase := func(name string, m0 readMark) error {
		m1, err := markReads(ctx, dr)
		if err != nil {
			return err
		}
		rep.Phases = append(rep.Phases, readPhase(name, m0, m1))
		return nil
	}
	say("drill.say.load_cached", d.Clients)
	m0, err := markReads(ctx, dr)
	if err != nil {
		return rep, err
	}
	sleep(ctx, d.Phase)
	if err := phase(messages.T("drill.phase_up"), m0); err != nil {
		return rep, err
	}
	say("drill.say.redis_stopped")
	dr.series.Event("Redis stopped")
	d.Redis.Stop()
	m0, _ = markReads(ctx, dr)
	sleep(ctx, d.Phase)
	if err := phase(messages.T("drill.phase_down"), m0); err != nil {
		return rep, err
	}
	if err := d.Redis.Start(ctx); err != nil {
		return rep, err
	}
	m0, _ = markReads(ctx, dr)
	say("drill.say.redis_started")
	dr.series.Event("Redis started (empty)")
	if took, ok := firstRedisHit(dr.watch, m0); ok {
		rep.Recover = took
		say("drill.say.first_hit", took.Seconds())
	}
	sleep(ctx, d.Phase-time.Since(m0.at))
	if err := phase(messages.T("drill.phase_back"), m0); err != nil {
		return rep, err
	}
	dr.series.Mark("end")
	rep.Series = dr.series.Finish(ctx)
	return rep, nil
}

// redisHits is the counter of reads Redis answered.
const redisHits = "peakload_cache_lookups_total{result=hit,tier=redis}"

// readMark is where a phase starts or ends: the server's counters, the
// requests the clients sent and the errors they got, and when.
type readMark struct {
	c          proc.Counters
	sent, errs int64
	at         time.Time
}

// markReads is where the drill stands now: a scrape of the server, and
// the clients' tallies.
func markReads(ctx context.Context, dr *drive) (readMark, error) {
	c, err := proc.Scrape(ctx, dr.srv.Target)
	return readMark{c, dr.load.Requests.Load(), dr.load.Rejected.Load() + dr.load.ServerErrs.Load(), time.Now()}, err
}

// readPhase is what happened between m0 and m1, per request served.
func readPhase(name string, m0, m1 readMark) ReadPhase {
	served := proc.Delta(m0.c, m1.c, "peakload_http_requests_total")
	per := func(key string) float64 {
		if served == 0 {
			return 0
		}
		return proc.Delta(m0.c, m1.c, key) / served
	}
	hit := proc.Delta(m0.c, m1.c, redisHits)
	miss := proc.Delta(m0.c, m1.c, "peakload_cache_lookups_total{result=miss,tier=redis}")
	p := ReadPhase{Name: name, Seconds: m1.at.Sub(m0.at).Seconds(), Requests: m1.sent - m0.sent, ServerErrors: m1.errs - m0.errs,
		FailOpenPerReq: per("peakload_cache_fail_open_total"), DBQPerReq: per("peakload_db_queries_total")}
	if hit+miss > 0 {
		p.RedisHitRatio = hit / (hit + miss)
	}
	return p
}

// firstRedisHit waits (up to 30 s) for the restarted, empty Redis to answer
// a read: the first hit counted after m0.
func firstRedisHit(watch *Watch, m0 readMark) (time.Duration, bool) {
	hits := m0.c[redisHits]
	return watch.Until(func(c proc.Counters) bool { return c[redisHits] > hits }, 30*time.Second)
}

// Print writes the phases as a table and the verdict.
func (r ReadReport) Print(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, messages.T("drill.read_header"))
	for _, p := range r.Phases {
		fmt.Fprintf(tw, "  %s\t%.1f\t%d\t%.0f\t%d\t%.2f\t%.2f\t%.2f\t\n", p.Name, p.Seconds, p.Requests, float64(p.Requests)/p.Seconds,
			p.ServerErrors, p.FailOpenPerReq, p.DBQPerReq, p.RedisHitRatio)
	}
	tw.Flush()
	fmt.Fprint(w, messages.T("drill.recover", r.Recover.Seconds()))
	if r.OK() {
		fmt.Fprintln(w, messages.T("drill.read_ok"))
	} else {
		fmt.Fprintln(w, messages.T("drill.read_bad"))
	}
}
