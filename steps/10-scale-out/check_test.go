package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/peakload/workshop/internal/catalog"
	"github.com/peakload/workshop/internal/conditional"
	"github.com/peakload/workshop/internal/metrics"
	"github.com/peakload/workshop/internal/params"
	"github.com/peakload/workshop/internal/replica"
	"github.com/peakload/workshop/internal/stacktest"
)

// The check runs the replicas in this process: each has its own Redis
// connection and its own memory tier, as separate processes would, and the
// listening ones run your Listen. It proves by ETags and timestamps, never
// by speed: after Change returns, no listening replica may serve the old
// ETag later than the bound of k6/lib/params.json (a third of the burst
// TTL); a replica that missed the announcement catches up within the TTL.

var (
	p        = params.Load()
	bound    = p.InvalidationBound()
	burstTTL = p.ForHitRatio(p.Clock.BurstTTLS)
)

// fleet starts n replicas; listening(i) says whether replica i runs Listen.
// It returns once every listener is subscribed (or after 2 s: a Listen
// that never subscribes is then caught by the staleness it leaves).
func fleet(t *testing.T, n int, listening func(i int) bool) []*replica.Replica {
	t.Helper()
	store := stacktest.Store(t)
	admin := stacktest.Redis(t)
	subscribed := func() int64 {
		m, err := admin.PubSubNumSub(t.Context(), replica.Channel).Result()
		if err != nil {
			t.Fatalf("PUBSUB NUMSUB: %v", err)
		}
		return m[replica.Channel]
	}
	before, listeners := subscribed(), 0
	rs := make([]*replica.Replica, n)
	for i := range rs {
		rs[i] = replica.New(fmt.Sprintf("r%d", i+1), store, stacktest.Redis(t), p.ForHitRatio(p.Clock.RedisTTLS), burstTTL)
		if !listening(i) {
			continue
		}
		listeners++
		ctx, stop := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); _ = Listen(ctx, rs[i]) }()
		t.Cleanup(func() {
			stop()
			select {
			case <-done:
			case <-time.After(2 * time.Second):
				t.Errorf("Listen of %s did not return within 2 s of its context ending: return when ctx is done (and close the subscription)", rs[i].Name)
			}
		})
	}
	for deadline := time.Now().Add(2 * time.Second); subscribed() < before+int64(listeners) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	return rs
}

// staleness changes id through via while every replica reads it in a loop,
// and returns how long after Change returned each replica still served
// the old ETag (0: not once). A replica still old after the limit gets the
// limit.
func staleness(t *testing.T, rs []*replica.Replica, via *replica.Replica, id int32) []time.Duration {
	t.Helper()
	ctx := t.Context()
	old := make([]string, len(rs))
	for i, r := range rs { // every replica holds the item in memory now
		b, err := r.Get(ctx, id)
		if err != nil {
			t.Fatalf("%s: Get(%d): %v", r.Name, id, err)
		}
		old[i] = conditional.Tag(b)
	}
	limit := 3*burstTTL + time.Second
	var (
		t0Mu sync.Mutex
		t0   time.Time // when Change returned; zero while it runs
	)
	changedAt := func() time.Time { t0Mu.Lock(); defer t0Mu.Unlock(); return t0 }
	out := make([]time.Duration, len(rs))
	// The readers stop with rctx: if Change fails, they are stopped and
	// waited for before the test fails, so none reports into a finished test.
	rctx, stop := context.WithCancel(ctx)
	defer stop()
	var wg sync.WaitGroup
	for i, r := range rs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var lastOld time.Time
			for {
				start := time.Now()
				b, err := r.Get(rctx, id)
				if rctx.Err() != nil {
					return
				}
				if err != nil {
					t.Errorf("%s: Get(%d): %v", r.Name, id, err)
					return
				}
				c := changedAt()
				if conditional.Tag(b) == old[i] {
					lastOld = start
				} else if !c.IsZero() && start.After(c) {
					if lastOld.After(c) {
						out[i] = lastOld.Sub(c)
					}
					return
				}
				if !c.IsZero() && time.Since(c) > limit {
					out[i] = limit
					return
				}
				time.Sleep(200 * time.Microsecond)
			}
		}()
	}
	time.Sleep(5 * time.Millisecond) // the readers are reading while Change runs
	if err := Change(ctx, via, id); err != nil {
		stop()
		wg.Wait()
		t.Fatalf("Change(%d) through %s: %v", id, via.Name, err)
	}
	t0Mu.Lock()
	t0 = time.Now()
	t0Mu.Unlock()
	wg.Wait()
	return out
}

func forgets() float64 { return testutil.ToFloat64(metrics.MemoryForgets) }

// The property of step 10: a change made through any replica reaches every
// replica's memory within the bound, whichever replica made it.
func TestAChangeReachesEveryReplicaWithinTheBound(t *testing.T) {
	rs := fleet(t, 4, func(int) bool { return true })
	const changes = 6
	f0 := forgets()
	for k := range changes {
		via := rs[k%len(rs)]
		id := int32(1001 + k)
		stale := staleness(t, rs, via, id)
		var late, each []string
		for i, d := range stale {
			each = append(each, fmt.Sprintf("%s %v", rs[i].Name, d.Round(time.Millisecond/10)))
			if d > bound {
				late = append(late, fmt.Sprintf("%s for %v", rs[i].Name, d.Round(time.Millisecond)))
			}
		}
		t.Logf("change %d (item %d) through %s: old ETag served after Change returned: %s", k+1, id, via.Name, strings.Join(each, ", "))
		if len(late) == 0 {
			continue
		}
		why := "announce the change after r.Write (r.Redis.Publish on replica.Channel) and forget what Listen hears (r.Memory.Forget)"
		switch n := forgets() - f0; {
		case n == 0:
			why = "no replica forgot anything: Listen must call r.Memory.Forget(id) for each message, and Change must publish the id after r.Write"
		case n < float64(len(rs)*(k+1)):
			why = "only some replicas forgot it (the one that made the change?): every replica must hear about it — publish the id on replica.Channel, do not just forget it locally"
		default:
			why = "every replica forgot something, yet served the old item on: forget the id that changed (the message's payload, parsed), and publish only after r.Write has committed — forgotten too early, the old row is reloaded and kept a whole TTL"
		}
		t.Fatalf("change %d of item %d through %s: %s still served the old ETag after Change returned, want at most %v (the bound; the burst TTL is %v): %s",
			k+1, id, via.Name, strings.Join(late, ", "), bound, burstTTL, why)
	}
}

// Pub/sub keeps nothing: a replica disconnected while a change was
// announced never hears of it. Its memory tier still expires, so it serves
// the new item within the burst TTL — the bound the exercise must not
// take away (no "cache until told" without a TTL).
func TestAReplicaThatMissedTheMessageConvergesWithinTheTTL(t *testing.T) {
	rs := fleet(t, 3, func(i int) bool { return i != 2 })
	const slack = 100 * time.Millisecond // scheduling on a busy machine
	for k := range 3 {
		id := int32(1101 + k)
		stale := staleness(t, rs, rs[k%2], id)
		for i, d := range stale[:2] {
			if d > bound {
				t.Fatalf("change of item %d through %s: listening replica %s served the old ETag %v after Change returned, want at most %v: publish after r.Write and forget what Listen hears",
					id, rs[k%2].Name, rs[i].Name, d.Round(time.Millisecond), bound)
			}
		}
		t.Logf("item %d: the replica that missed the announcement served the old ETag %v after the change (burst TTL %v)", id, stale[2].Round(time.Millisecond), burstTTL)
		if stale[2] > burstTTL+slack {
			t.Fatalf("a replica that missed the announcement served the old item %v after the change, want within the burst TTL (%v): the memory tier must keep expiring entries", stale[2].Round(time.Millisecond), burstTTL)
		}
	}
}

// The change endpoint: bad ids are the client's fault, unknown items are
// 404, and Change passes on r.Write's error (an unknown item is not
// announced as changed).
func TestTheChangeEndpoint(t *testing.T) {
	t.Setenv("PEAKLOAD_LISTEN", "off") // nothing stops this server's Listen at the end of the test
	srv := newServer(stacktest.Store(t), stacktest.Redis(t))
	for _, c := range []struct {
		path string
		code int
	}{
		{"/items/abc/change", http.StatusBadRequest},
		{"/items/0/change", http.StatusBadRequest},
		{"/items/100001/change", http.StatusNotFound},
		{"/items/1201/change", http.StatusOK},
	} {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, c.path, nil))
		if rec.Code != c.code || !strings.HasPrefix(rec.Body.String(), "{") {
			t.Errorf("POST %s: %d %s, want %d with a JSON body (Change must return r.Write's error: an unknown item is a 404)", c.path, rec.Code, rec.Body, c.code)
		}
	}
	err := Change(t.Context(), replica.New("r", stacktest.Store(t), stacktest.Redis(t), time.Second, time.Second), 100_001)
	if !errors.Is(err, catalog.ErrNotFound) {
		t.Errorf("Change of an unknown item returned %v, want r.Write's catalog.ErrNotFound", err)
	}
}
