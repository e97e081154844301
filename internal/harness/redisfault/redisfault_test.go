package redisfault_test

import (
	"errors"
	"io"
	"net"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/peakload/workshop/internal/given/redisconn"
	"github.com/peakload/workshop/internal/harness/redisfault"
	"github.com/peakload/workshop/internal/harness/stacktest"
)

// The proxy is transparent until told otherwise, then fails each way it
// says, as go-redis sees it.
func TestEachFaultReachesTheClientAsItSays(t *testing.T) {
	stacktest.Redis(t) // skips under -short, says how to start Redis
	p := redisfault.Start(t, stacktest.Endpoints(t).RedisAddr)
	rdb := redisconn.New(p.Addr())
	defer rdb.Close()
	ctx := t.Context()
	const key = "test:redisfault"

	if err := rdb.Set(ctx, key, "through", time.Minute).Err(); err != nil {
		t.Fatalf("SET through the proxy: %v", err)
	}
	if v, err := rdb.Get(ctx, key).Result(); v != "through" || err != nil {
		t.Fatalf("GET through the proxy: %q, %v; want \"through\"", v, err)
	}
	if err := rdb.Get(ctx, key+":none").Err(); !errors.Is(err, redis.Nil) {
		t.Fatalf("GET of a missing key through the proxy: %v, want redis.Nil", err)
	}
	if v, err := rdb.HGetAll(ctx, key+":none").Result(); err != nil || len(v) != 0 {
		t.Fatalf("HGETALL (a RESP3 map) through the proxy: %v, %v", v, err)
	}

	p.On("get", redisfault.Reply("LOADING Redis is loading the dataset in memory"))
	var rerr redis.Error
	if err := rdb.Get(ctx, key).Err(); !errors.As(err, &rerr) || err.Error() != "LOADING Redis is loading the dataset in memory" {
		t.Fatalf("GET answered -LOADING: %v, want that redis.Error", err)
	}

	p.On("get", redisfault.HangUp)
	if err := rdb.Get(ctx, key).Err(); !errors.Is(err, io.EOF) {
		t.Fatalf("GET on a connection closed under it: %v, want io.EOF", err)
	}

	p.On("get", redisfault.Stall)
	var nerr net.Error
	if err := rdb.Get(ctx, key).Err(); !errors.As(err, &nerr) || !nerr.Timeout() {
		t.Fatalf("GET never answered: %v, want the client's read timeout", err)
	}
	if name := <-p.Stalled(); name != "get" {
		t.Fatalf("the proxy says it held %q, want get", name)
	}
	select {
	case <-p.Abandoned(): // go-redis drops a connection whose read timed out
	case <-time.After(5 * time.Second):
		t.Fatal("the client's timed-out connection was not closed within 5 s")
	}
	if n := p.Received("GET"); n != 5 {
		t.Fatalf("the proxy counted %d GETs, want 5", n)
	}
	p.On("get", redisfault.Pass)
	if v, err := rdb.Get(ctx, key).Result(); v != "through" || err != nil {
		t.Fatalf("GET after the faults: %q, %v; want \"through\"", v, err)
	}
}
