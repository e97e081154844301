package main

import (
	"context"
	"errors"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/peakload/workshop/internal/given/catalog"
	"github.com/peakload/workshop/internal/given/redisconn"
	"github.com/peakload/workshop/internal/harness/stacktest"
)

// hungRedis is a Redis that accepts connections and never answers: an
// overloaded or stuck server, whose client gets timeouts, not a refusal.
func hungRedis(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var conns sync.WaitGroup
	t.Cleanup(conns.Wait) // the reads end once the client closes its connections
	conns.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Go(func() {
				defer c.Close()
				buf := make([]byte, 512)
				for { // read what the client sends, answer nothing
					if _, err := c.Read(buf); err != nil {
						return
					}
				}
			})
		}
	})
	t.Cleanup(func() { ln.Close() }) // runs first: Accept returns, then the reads end with the client
	return ln.Addr().String()
}

type traceKey struct{}

// callerCtx is a request's context: a trace id and a deadline of its own.
func callerCtx(t *testing.T) (context.Context, time.Time) {
	deadline := time.Now().Add(30 * time.Second)
	ctx, cancel := context.WithDeadline(context.WithValue(t.Context(), traceKey{}, "trace-42"), deadline)
	t.Cleanup(cancel)
	return ctx, deadline
}

// sameRequest says how the load's ctx differs from the caller's ("" if it
// carries its trace id and its deadline).
func sameRequest(lctx context.Context, deadline time.Time) string {
	if lctx.Value(traceKey{}) != "trace-42" {
		return "the load's ctx lost the request's values (its trace id)"
	}
	d, ok := lctx.Deadline()
	if ok && d.Before(deadline) {
		return "the load's ctx has a deadline of its own, before the request's (a budget made for the GET, passed on to load?): " +
			"what Redis used of it is gone, and the database read fails for a request that still had time"
	}
	if !ok || !d.Equal(deadline) {
		return "the load's ctx lost the request's deadline, so a client that gives up still holds a query"
	}
	return ""
}

// A Redis that is up but does not answer (overloaded, stuck, a failover in
// progress) is down too: its timeouts must fail open as a refusal does.
func TestASlowRedisFailsOpen(t *testing.T) {
	rdb := redisconn.New(hungRedis(t))
	defer rdb.Close()
	ctx, deadline := callerCtx(t)
	var lost string
	type answer struct {
		v   []byte
		err error
	}
	done := make(chan answer, 1)
	go func() {
		v, err := GetOrSet(ctx, rdb, "test:step2:hung", time.Minute, func(lctx context.Context) ([]byte, error) {
			lost = sameRequest(lctx, deadline)
			return []byte("from the database"), nil
		})
		done <- answer{v, err}
	}()
	select {
	case a := <-done:
		if a.err != nil || string(a.v) != "from the database" {
			t.Fatalf("with a Redis that accepts connections but never answers (its GET times out), GetOrSet returned %q, %v; "+
				"want what load returned: a timeout is Redis down too, fail open on any error but redis.Nil", a.v, a.err)
		}
	case <-time.After(watchdog):
		t.Fatalf("with a Redis that accepts connections but never answers, GetOrSet had not returned after %v (the client's timeouts are 100–200 ms): "+
			"it waits on something its timeouts do not end", watchdog)
	}
	if lost != "" {
		t.Fatalf("Redis timed out and load ran, but %s: pass GetOrSet's ctx to load", lost)
	}
}

// The load runs on the request's context, on a miss and when Redis is down:
// its deadline and trace id reach PostgreSQL.
func TestTheLoadGetsTheRequestContext(t *testing.T) {
	rdb := stacktest.Redis(t)
	dead := redisconn.New("127.0.0.1:1") // nothing listens there
	defer dead.Close()
	key := catalog.ItemKey(100_002)
	rdb.Del(t.Context(), key)
	for _, c := range []struct {
		when string
		rdb  *redis.Client
	}{{"on a miss", rdb}, {"with Redis down", dead}} {
		ctx, deadline := callerCtx(t)
		called, lost := false, ""
		_, err := GetOrSet(ctx, c.rdb, key, time.Second, func(lctx context.Context) ([]byte, error) {
			called, lost = true, sameRequest(lctx, deadline)
			return nil, errTestNotFound
		})
		switch {
		case !called:
			t.Fatalf("%s GetOrSet did not call load (it returned %v)", c.when, err)
		case lost != "":
			t.Fatalf("%s %s: pass GetOrSet's ctx to load", c.when, lost)
		case !errors.Is(err, errTestNotFound):
			t.Fatalf("%s GetOrSet returned %v, want the load's error", c.when, err)
		}
	}
}

var errTestNotFound = errors.New("not in the test's database")
