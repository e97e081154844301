package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/peakload/workshop/internal/given/catalog"
	"github.com/peakload/workshop/internal/given/redisconn"
	"github.com/peakload/workshop/internal/harness/redisfault"
	"github.com/peakload/workshop/internal/harness/stacktest"
)

// A way Redis fails a read: the client that fails so, and the command that
// shows the test made it fail as it says (the failure is the test's setup,
// checked before GetOrSet meets it).
type failure struct {
	what   string // "GET with Redis answering -LOADING …", for the message
	client func(t *testing.T, key string) *redis.Client
	probe  func(ctx context.Context, rdb *redis.Client, key string) error
	want   func(err error) bool
}

// Error replies a real Redis gives a GET or a SET when it is starting,
// busy, full or cut off from its primary: go-redis returns each as a
// redis.Error, not a network error.
var errorReplies = []string{
	"LOADING Redis is loading the dataset in memory",
	"BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSCRIPT.",
	"MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.",
	"ERR max number of clients reached",
}

// failures is every class of error a go-redis GET returns but redis.Nil
// (the miss): error replies, the pool's own timeout, network errors that
// are not a refusal, and on a miss a SET that fails.
func failures() []failure {
	var fs []failure
	for _, line := range errorReplies {
		fs = append(fs, failure{
			what:   fmt.Sprintf("GET (and SET) with Redis answering -%s", line),
			client: proxied(redisfault.Reply(line), redisfault.Reply(line), patient),
			probe:  getErr, want: func(err error) bool { return isReply(err) && err.Error() == line },
		})
	}
	for _, line := range []string{"OOM command not allowed when used memory > 'maxmemory'.", "READONLY You can't write against a read only replica."} {
		fs = append(fs, failure{
			what:   fmt.Sprintf("a miss whose SET Redis answers -%s", line),
			client: proxied(redisfault.Pass, redisfault.Reply(line), patient),
			probe:  setErr, want: func(err error) bool { return isReply(err) && err.Error() == line },
		})
	}
	return append(fs,
		failure{what: "GET of a key that holds a list (Redis answers -WRONGTYPE)", client: listAtKey, probe: getErr, want: isReply},
		failure{what: "GET while the client's only pooled connection is busy (the pool's timeout)", client: poolHeld,
			probe: getErr, want: isPoolTimeout},
		failure{what: "GET whose connection Redis closes under it (io.EOF: restarted, killed)", client: proxied(redisfault.HangUp, redisfault.HangUp, patient),
			probe: getErr, want: func(err error) bool { return errors.Is(err, io.EOF) }},
		failure{what: "GET that Redis never answers (the client's read timeout)", client: proxied(redisfault.Stall, redisfault.Stall, redisconn.New),
			probe: getErr, want: isTimeout},
		failure{what: "GET with Redis refusing the connection", client: func(t *testing.T, _ string) *redis.Client { return closing(t, redisconn.New("127.0.0.1:1")) },
			probe: getErr, want: func(err error) bool { var op *net.OpError; return errors.As(err, &op) }},
	)
}

func getErr(ctx context.Context, rdb *redis.Client, key string) error { return rdb.Get(ctx, key).Err() }
func setErr(ctx context.Context, rdb *redis.Client, key string) error {
	return rdb.Set(ctx, key+":probe", "x", time.Second).Err()
}

func isReply(err error) bool {
	var re redis.Error
	return errors.As(err, &re) && !errors.Is(err, redis.Nil)
}

// isPoolTimeout is go-redis v9.8's pool.ErrPoolTimeout, which the package
// does not export: an answer cannot name it, only fail open by default.
func isPoolTimeout(err error) bool {
	return err != nil && err.Error() == "redis: connection pool timeout"
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

func closing(t *testing.T, rdb *redis.Client) *redis.Client {
	t.Cleanup(func() { rdb.Close() })
	return rdb
}

// proxied is a client (dial) on the real Redis through a proxy that does
// get to GETs and set to SETs; everything else goes through.
func proxied(get, set redisfault.Fault, dial func(addr string) *redis.Client) func(t *testing.T, _ string) *redis.Client {
	return func(t *testing.T, _ string) *redis.Client {
		p := redisfault.Start(t, stacktest.Endpoints(t).RedisAddr)
		p.On("get", get)
		p.On("set", set)
		return closing(t, dial(p.Addr()))
	}
}

// patient is the step's client with timeouts twenty times as long: where
// Redis fails by an error reply or a closed connection, the step's 100 ms
// read timeout (its HELLO through the proxy, say) must not fail it first
// on a loaded machine — the check would then test another failure than it
// says. Not longer: a reply the answer's client cannot parse (a MULTI
// whose SET the proxy refuses) still ends in its read timeout, which the
// answer fails open on. Only the stall keeps the step's own timeouts.
func patient(addr string) *redis.Client { return redisconn.Patient(addr, 2*time.Second) }

// listAtKey is the real Redis with a list where the item's string should
// be: its GET answers WRONGTYPE.
func listAtKey(t *testing.T, key string) *redis.Client {
	stacktest.Redis(t)
	rdb := closing(t, patient(stacktest.Endpoints(t).RedisAddr))
	if err := rdb.RPush(t.Context(), key, "not an item").Err(); err != nil {
		t.Fatalf("making %s a list: %v", key, err)
	}
	t.Cleanup(func() { rdb.Del(context.Background(), key) })
	return rdb
}

// poolHeld is a client of one connection, held by a transaction in
// progress elsewhere: every other command waits PoolTimeout, then fails.
func poolHeld(t *testing.T, _ string) *redis.Client {
	rdb := closing(t, redis.NewClient(&redis.Options{Addr: stacktest.Endpoints(t).RedisAddr, PoolSize: 1,
		PoolTimeout: 20 * time.Millisecond, MaxRetries: -1}))
	held := rdb.Conn()
	if err := held.Ping(t.Context()).Err(); err != nil {
		t.Fatalf("taking the pool's only connection: %v", err)
	}
	t.Cleanup(func() { held.Close() })
	return rdb
}

// Whatever way Redis fails a GET — or the SET after a miss — the read is
// served from PostgreSQL: 200, the item's bytes, one query.
func TestEveryWayAGETFailsIsServedFromPostgreSQL(t *testing.T) {
	store := stacktest.Store(t)
	clean := stacktest.Redis(t)
	for i, f := range failures() {
		id := int32(5200 + i)
		key := catalog.ItemKey(id)
		clean.Del(t.Context(), key)
		rdb := f.client(t, key)
		if err := f.probe(t.Context(), rdb, key); !f.want(err) {
			t.Fatalf("the test could not make Redis fail as it says (%s): the client got %v", f.what, err)
		}
		rec, q := get(t, newServer(store, rdb), id)
		if rec.Code != 200 || q != 1 {
			t.Errorf("%s: the handler answered %d with %v DB queries (%.60q); want 200 from PostgreSQL, 1 query. "+
				"Fail open: every GET error but redis.Nil means load — not only a refused connection — and a SET that fails costs a future miss, not this response",
				f.what, rec.Code, q, rec.Body.String())
			continue // the next way Redis fails: the learner sees every one that is not served
		}
		if want, err := store.ItemJSON(t.Context(), id); err != nil || !bytes.Equal(rec.Body.Bytes(), want) {
			t.Errorf("%s: the handler answered %d bytes, PostgreSQL has %d (%v): serve what load returns", f.what, rec.Body.Len(), len(want), err)
		}
	}
}

// loaded marks the load's own outcome, so the test tells it from an error
// GetOrSet made up.
type loaded struct{ err error }

func (l loaded) Error() string { return "the load: " + l.err.Error() }
func (l loaded) Unwrap() error { return l.err }

// A request whose context has ended gets a context error from go-redis
// before its GET is sent. That is Redis failing the read too: the load
// still runs on that context, and PostgreSQL answers for it.
func TestAGETEndedByTheRequestsContextStillCallsLoad(t *testing.T) {
	store, rdb := stacktest.Store(t), stacktest.Redis(t)
	expired, cancel := context.WithDeadline(t.Context(), time.Now().Add(-time.Second))
	defer cancel()
	cancelled, cancel2 := context.WithCancel(t.Context())
	cancel2()
	for _, c := range []struct {
		what string
		ctx  context.Context
	}{{"past its deadline", expired}, {"cancelled", cancelled}} {
		if err := rdb.Get(c.ctx, "test:step2:ended").Err(); !errors.Is(err, c.ctx.Err()) {
			t.Fatalf("a GET on a request context %s returned %v, want %v: the test cannot make the context end the GET", c.what, err, c.ctx.Err())
		}
		called := false
		_, err := GetOrSet(c.ctx, rdb, catalog.ItemKey(5300), time.Minute, func(lctx context.Context) ([]byte, error) {
			called = true
			b, err := store.ItemJSON(lctx, 5300)
			if err != nil {
				return nil, loaded{err}
			}
			return b, nil
		})
		var l loaded
		if !called || !errors.As(err, &l) {
			t.Fatalf("GET with the request's context %s (go-redis returns %v): GetOrSet returned %v, load called: %v; "+
				"want load called on that context and its outcome returned — fail open on that error too: PostgreSQL, not the cache, answers for the request",
				c.what, c.ctx.Err(), err, called)
		}
	}
}
