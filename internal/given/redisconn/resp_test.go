package redisconn_test

import (
	"context"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/redis/go-redis/v9"

	"github.com/peakload/workshop/internal/given/metrics"
	"github.com/peakload/workshop/internal/harness/stacktest"
)

// TestExchangeSizeMatchesTheWire holds a request's tallied Redis bytes (sized
// from the command and its reply, resp.go) to what its connection carried,
// for every shape of command the workshop's code and its kept answers send:
// a hit, a miss, the ways to set with a TTL, a MULTI … EXEC, a delete.
func TestExchangeSizeMatchesTheWire(t *testing.T) {
	rdb := stacktest.Redis(t) // connected: the handshake is behind us
	value := []byte(`{"id":7,"title":"a live stream","viewers":1234}`)
	shapes := []struct {
		name  string
		shape func(ctx context.Context) error
	}{
		{"get miss", func(ctx context.Context) error { return ignoreNil(rdb.Get(ctx, "resp:absent").Err()) }},
		{"set ttl", func(ctx context.Context) error { return rdb.Set(ctx, "resp:k", value, 30*time.Second).Err() }},
		{"get hit", func(ctx context.Context) error { return rdb.Get(ctx, "resp:k").Err() }},
		{"getex", func(ctx context.Context) error { return rdb.GetEx(ctx, "resp:k", time.Minute).Err() }},
		{"setex", func(ctx context.Context) error { return rdb.SetEx(ctx, "resp:k", value, time.Minute).Err() }},
		{"setargs", func(ctx context.Context) error {
			return rdb.SetArgs(ctx, "resp:k", value, redis.SetArgs{TTL: time.Minute}).Err()
		}},
		{"setnx taken", func(ctx context.Context) error { return rdb.SetNX(ctx, "resp:k", value, time.Minute).Err() }},
		{"setnx free", func(ctx context.Context) error { return rdb.SetNX(ctx, "resp:nx", value, time.Minute).Err() }},
		{"setnx no ttl", func(ctx context.Context) error { return rdb.SetNX(ctx, "resp:nx2", value, 0).Err() }},
		{"do set px", func(ctx context.Context) error { return rdb.Do(ctx, "SET", "resp:k", value, "PX", int64(60000)).Err() }},
		{"do get", func(ctx context.Context) error { return rdb.Do(ctx, "GET", "resp:k").Err() }},
		{"del", func(ctx context.Context) error { return rdb.Del(ctx, "resp:nx", "resp:nx2").Err() }},
		{"publish", func(ctx context.Context) error { return rdb.Publish(ctx, "resp:chan", "7").Err() }},
		{"pipeline", func(ctx context.Context) error { _, err := rdb.Pipelined(ctx, pipe(value)); return err }},
		{"tx set + expire", func(ctx context.Context) error { _, err := rdb.TxPipelined(ctx, pipe(value)); return err }},
	}
	for _, s := range shapes {
		name, shape := s.name, s.shape
		ctx, tally := metrics.WithTally(t.Context())
		before := wire()
		if err := shape(ctx); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got, want := tally.RedisBytes(), int64(wire()-before); got != want {
			t.Errorf("%s: tallied %d Redis bytes, the connection carried %d", name, got, want)
		}
	}
}

func wire() float64 {
	return testutil.ToFloat64(metrics.RedisReadBytes) + testutil.ToFloat64(metrics.RedisWrittenBytes)
}

func pipe(value []byte) func(redis.Pipeliner) error {
	return func(p redis.Pipeliner) error {
		p.Set(context.Background(), "resp:p", value, 0)
		p.Expire(context.Background(), "resp:p", time.Minute)
		return nil
	}
}

func ignoreNil(err error) error {
	if err == redis.Nil {
		return nil
	}
	return err
}
