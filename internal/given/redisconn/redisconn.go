// Package redisconn opens the Redis client every cache step uses: its
// connections count the bytes they carry and its commands are counted by
// name, so /metrics shows the API↔Redis bandwidth article A5 cut by 5–6×.
// Timeouts are short on purpose: a cache that is slow is worse than none,
// and the caller falls back to the database (fail open).
package redisconn

import (
	"context"
	"log"
	"net"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/peakload/workshop/internal/given/metrics"
)

// New returns a counted client for addr.
func New(addr string) *redis.Client {
	c := redis.NewClient(options(addr))
	c.AddHook(commandCounter{})
	return c
}

// Patient is New with every timeout set to d: for a check whose Redis
// fails some other way than slowly (an error reply, a closed connection),
// so that on a loaded machine the client still meets that failure and
// not its own 100 ms read timeout first.
func Patient(addr string, d time.Duration) *redis.Client {
	o := options(addr)
	o.DialTimeout, o.ReadTimeout, o.WriteTimeout, o.PoolTimeout = d, d, d, d
	c := redis.NewClient(o)
	c.AddHook(commandCounter{})
	return c
}

// options are New's: short timeouts, no retries, counted connections.
func options(addr string) *redis.Options {
	return &redis.Options{
		Addr:         addr,
		DialTimeout:  200 * time.Millisecond,
		ReadTimeout:  100 * time.Millisecond,
		WriteTimeout: 100 * time.Millisecond,
		PoolTimeout:  200 * time.Millisecond,
		PoolSize:     64,
		MaxRetries:   -1, // no retries: on an error the caller reads the database instead
		Dialer: func(ctx context.Context, network, addr string) (net.Conn, error) {
			var d net.Dialer
			conn, err := d.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			return countingConn{conn}, nil
		},
	}
}

type countingConn struct{ net.Conn }

func (c countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	metrics.RedisReadBytes.Add(float64(n))
	return n, err
}

func (c countingConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	metrics.RedisWrittenBytes.Add(float64(n))
	return n, err
}

type commandCounter struct{}

func (commandCounter) DialHook(next redis.DialHook) redis.DialHook { return next }

// ProcessHook counts each command, and adds it to the tally of the request
// whose context sent it (resp.go sizes it).
func (commandCounter) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		metrics.RedisCommands.WithLabelValues(cmd.Name()).Inc()
		err := next(ctx, cmd)
		if t := metrics.TallyOf(ctx); t != nil {
			t.AddRedis(cmd.Name() == "get", exchangeSize(cmd, err))
		}
		return err
	}
}

func (commandCounter) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		for _, cmd := range cmds {
			metrics.RedisCommands.WithLabelValues(cmd.Name()).Inc()
		}
		err := next(ctx, cmds)
		if t := metrics.TallyOf(ctx); t != nil {
			tallyPipeline(t, cmds)
		}
		return err
	}
}

// tallyPipeline adds a pipeline's commands to t: a MULTI … EXEC block is
// sized as one exchange, each command of a plain pipeline as its own.
func tallyPipeline(t *metrics.Tally, cmds []redis.Cmder) {
	tx := len(cmds) >= 2 && cmds[0].Name() == "multi" && cmds[len(cmds)-1].Name() == "exec"
	for i, cmd := range cmds {
		var n int64
		switch {
		case tx && i == 0:
			n = txSize(cmds)
		case !tx:
			n = exchangeSize(cmd, cmd.Err())
		}
		t.AddRedis(cmd.Name() == "get", n)
	}
}

// FailOpen records that a read skipped Redis because of err. It logs the
// first failure of a burst and then at most every 5 s with a count, so a
// Redis outage under 20k req/s does not flood the log.
func FailOpen(err error) {
	metrics.FailOpen.Inc()
	failLog.Lock()
	defer failLog.Unlock()
	failLog.suppressed++
	if time.Since(failLog.last) < 5*time.Second {
		return
	}
	log.Printf("redis: %v — serving from the database (fail open; %d reads since the last report)", err, failLog.suppressed)
	failLog.last, failLog.suppressed = time.Now(), 0
}

var failLog struct {
	sync.Mutex
	last       time.Time
	suppressed int
}
