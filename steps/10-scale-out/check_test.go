package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/peakload/workshop/internal/given/catalog"
	"github.com/peakload/workshop/internal/given/conditional"
	"github.com/peakload/workshop/internal/given/metrics"
	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/given/redisconn"
	"github.com/peakload/workshop/internal/given/replica"
	"github.com/peakload/workshop/internal/given/serverenv"
	"github.com/peakload/workshop/internal/harness/bubble"
	"github.com/peakload/workshop/internal/harness/stacktest"
	"github.com/peakload/workshop/internal/harness/stalewindow"
)

// The check runs the replicas in this process: each has its own Redis
// connection and its own memory tier, as separate processes would, and the
// listening ones run your Listen. It proves by ETags and by the order in
// which Redis delivers messages, never by speed: once a listening replica
// has heard an announcement the check made after Change returned, it
// serves the new item (the bench measures how soon, in milliseconds). A
// replica that missed the announcement catches up within the burst TTL.

// patience bounds the check's waits for an event: a right answer gives it
// in milliseconds, so past it the machine stalled (bubble.Stalled) and the
// test stops with no verdict.
const patience = 30 * time.Second

// rounds is how many of the check's own announcements, each made after
// Change returned and heard by every listener, a listening replica may
// take to serve the new item: one. Change returns once Redis has taken its
// announcement (TestAChangeIsAnsweredOnlyOnceItIsAnnounced), Redis
// delivers a channel's messages to every subscriber in the order they were
// published, and Listen forgets each item before it takes the next message
// (TestListenForgetsEachItemBeforeItTakesTheNext): a replica that has
// heard the check's message has forgotten the item. A count of events, not
// a time.
const rounds = 1

// markers is where the ids of the check's own announcements start, a
// fresh id each: no item has one, and a replica's memory holds one only
// when the check puts it there.
const markers int32 = 1_000_000_000

var announced atomic.Int32 // the check's announcements so far

// listenerTTL is how long a listening replica keeps an item: past any
// test, so only a Forget makes it load the item again and no expiry can
// pass a wrong answer. A replica that does not listen keeps the burst TTL.
const listenerTTL = time.Hour

var (
	p        = params.Load()
	burstTTL = p.ForHitRatio(p.Clock.BurstTTLS)
)

// fleet starts n replicas; listening(i) says whether replica i runs Listen.
// Each replica has its own Redis client, named so that CLIENT LIST shows
// whose subscription is whose. fleet returns once every listener is
// subscribed, or each that is not has returned (a Listen that never
// subscribes is then caught by the staleness it leaves).
func fleet(t *testing.T, n int, listening func(i int) bool) *replicas {
	t.Helper()
	store := stacktest.Store(t)
	f := &replicas{admin: patient(t), ls: make([]*listener, n)}
	f.prefix = fmt.Sprintf("s10check-%d-", fleets.Add(1))
	for i := range n {
		o := *f.admin.Options() // patient too: a verdict on Change, not on a timeout
		o.ClientName = fmt.Sprintf("%sr%d", f.prefix, i+1)
		rdb := redis.NewClient(&o)
		t.Cleanup(func() { rdb.Close() })
		ttl := burstTTL
		if listening(i) {
			ttl = listenerTTL
		}
		r := newReplica(fmt.Sprintf("r%d", i+1), store, rdb, p.ForHitRatio(p.Clock.RedisTTLS), ttl)
		f.rs = append(f.rs, r)
		if listening(i) {
			f.ls[i] = startListen(r)
		}
	}
	t.Cleanup(func() {
		for _, l := range f.ls {
			if l != nil {
				l.stop()
			}
		}
		deadline := time.Now().Add(patience) // one wait for them all
		for _, l := range f.ls {
			if l != nil {
				l.end(t, deadline)
			}
		}
	})
	f.awaitSubscribed(t)
	return f
}

var fleets atomic.Int32 // names each fleet's clients apart

// patient is a client of the stack's Redis that waits as long as the
// check does. The step's 100 ms read timeout, met on a loaded machine by
// the check's own questions or by r.Write and PUBLISH, would read as a
// verdict on your code; it is the server's setting, not the lesson here.
func patient(t *testing.T) *redis.Client {
	t.Helper()
	stacktest.Redis(t) // skipped under -short, and fails when Redis is not there
	rdb := redisconn.Patient(stacktest.Endpoints(t).RedisAddr, patience)
	t.Cleanup(func() { rdb.Close() })
	return rdb
}

// replicas is a fleet: the replicas, their listeners (nil for one that
// does not listen) and an admin client of the same Redis.
type replicas struct {
	rs     []*replica.Replica
	ls     []*listener
	admin  *redis.Client
	prefix string
}

// awaitSubscribed waits until every listener's client holds a
// subscription, or each that does not has seen its Listen return (it will
// not subscribe again), and returns the names of those that do not. A
// listener still running yet unsubscribed past patience: the machine
// stalled (a running Listen keeps receiving, and go-redis subscribes it
// again at once).
func (f *replicas) awaitSubscribed(t *testing.T) []string {
	t.Helper()
	// A poll of a real Redis: it returns as soon as all are subscribed.
	for start := time.Now(); ; time.Sleep(10 * time.Millisecond) {
		subs := f.subscribed(t)
		var missing []string
		running := false
		for i, l := range f.ls {
			if l != nil && !subs[f.rs[i].Name] {
				missing = append(missing, f.rs[i].Name)
				running = running || !l.returned()
			}
		}
		if !running {
			return missing
		}
		if time.Since(start) > patience {
			bubble.Stalled(t, patience, "every listener subscribed, or returned: "+f.states())
		}
	}
}

// subscribed reads CLIENT LIST: which of the fleet's replicas have a
// connection subscribed to a channel now.
func (f *replicas) subscribed(t *testing.T) map[string]bool {
	list, err := f.admin.Do(t.Context(), "CLIENT", "LIST", "TYPE", "pubsub").Text()
	if err != nil {
		// The check's own question to Redis, not your code's: a timeout on
		// a loaded machine is no verdict on Change or Listen.
		bubble.Stalled(t, patience, fmt.Sprintf("Redis answer its CLIENT LIST TYPE pubsub (%v)", err))
	}
	subs := map[string]bool{}
	for line := range strings.Lines(list) {
		name, n := "", 0
		for _, kv := range strings.Fields(line) {
			if v, ok := strings.CutPrefix(kv, "name="); ok {
				name = v
			} else if k, v, ok := strings.Cut(kv, "="); ok && (k == "sub" || k == "psub") {
				c, _ := strconv.Atoi(v) // channels, and patterns (PSUBSCRIBE)
				n += c
			}
		}
		if r, ok := strings.CutPrefix(name, f.prefix); ok && n > 0 {
			subs[r] = true
		}
	}
	return subs
}

// awaitHearing announces a fresh id every 50 ms until every listener
// forgot one or returned, and returns the names of those that forgot
// none. Every listener is subscribed when it is called, so a running
// Listen hears one of the first announcements; past patience the machine
// stalled. (Announcing again tells a listener still swapping its
// subscription, which loses a message as pub/sub does, from one that does
// not hear; the pause is pacing, not a verdict.) Each announcement has an
// id of its own, so a listener is counted as having heard one only for a
// message published now: one still queued from an earlier round, made
// before the change being judged, forgets an id no longer looked at.
func (f *replicas) awaitHearing(t *testing.T) []string {
	t.Helper()
	deaf := map[int]bool{}
	for i, l := range f.ls {
		if l != nil {
			deaf[i] = true
		}
	}
	for start := time.Now(); len(deaf) > 0; {
		running := false
		for i := range deaf {
			running = running || !f.ls[i].returned()
		}
		if !running {
			break
		}
		if time.Since(start) > patience {
			bubble.Stalled(t, patience, "every running listener forget one of the check's announcements, made every 50 ms: "+f.states())
		}
		id := markers + announced.Add(1)
		for i := range deaf { // its burst TTL is far off
			cached(f.rs[i], id)
		}
		if err := f.admin.Publish(t.Context(), replica.Channel, fmt.Sprint(id)).Err(); err != nil {
			bubble.Stalled(t, patience, fmt.Sprintf("Redis answer the check's own PUBLISH (%v)", err))
		}
		time.Sleep(50 * time.Millisecond) // must sleep: the message travels through a real Redis
		for i := range deaf {
			if !cached(f.rs[i], id) {
				delete(deaf, i)
			}
		}
	}
	var names []string
	for i := range f.rs {
		if deaf[i] {
			names = append(names, f.rs[i].Name)
		}
	}
	return names
}

// states says how each listener is doing, for a message.
func (f *replicas) states() string {
	var s []string
	for i, l := range f.ls {
		if l != nil {
			s = append(s, f.rs[i].Name+": "+l.state())
		}
	}
	return strings.Join(s, "; ")
}

// change calls Change; a panic in it fails the test with a message
// instead of crashing the check.
func change(ctx context.Context, r *replica.Replica, id int32) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("Change panicked: %v", v)
		}
	}()
	return Change(ctx, r, id)
}

// tags reads id on each replica and returns the ETags they serve; a
// replica that had to load it keeps it (a listener for an hour).
func tags(t *testing.T, rs []*replica.Replica, id int32) []string {
	t.Helper()
	out := make([]string, len(rs))
	for i, r := range rs {
		b, err := r.Get(t.Context(), id)
		if err != nil {
			t.Fatalf("%s: Get(%d): %v", r.Name, id, err)
		}
		out[i] = conditional.Tag(b)
	}
	return out
}

// readWhile runs write while every replica reads id in a loop, as its
// clients would: an announcement that outruns the commit makes a replica
// reload the old row then, and keep it. The loops have each read once
// before write starts; their pause is pacing, not a wait.
//
// The loops stop between reads, never inside one: a read cancelled while
// it loads leaves its load running on (step 4's flight detaches it), and
// that load, holding a row it read before a later change, would SET it
// into Redis after that change's r.Write dropped the key: every replica
// would then reload the old row. That is delete-on-write's own race,
// which r.Write is given with and the lesson does not ask Change to
// close; so readWhile returns only once every read, and its load, is done.
func readWhile(t *testing.T, rs []*replica.Replica, id int32, write func(context.Context) error) error {
	var done atomic.Bool
	var wg, reading sync.WaitGroup
	reading.Add(len(rs))
	for _, r := range rs {
		wg.Go(func() {
			for n := 0; !done.Load(); n++ {
				r.Get(t.Context(), id) // not judged: what it keeps is, afterwards
				if n == 0 {
					reading.Done()
				}
				time.Sleep(200 * time.Microsecond)
			}
		})
	}
	reading.Wait()
	err := write(t.Context())
	done.Store(true)
	wg.Wait()
	return err
}

// settle returns what stale lists (replicas, or items, still old) once
// it lists nothing, or once every listener has heard rounds of the
// check's announcements, each made after the changes returned;
// and how many they heard.
func (f *replicas) settle(t *testing.T, stale func() []string) (left []string, heard int) {
	t.Helper()
	for ; ; heard++ {
		if left = stale(); len(left) == 0 || heard == rounds {
			return left, heard
		}
		f.awaitHearing(t)
	}
}

// reach changes id through write while every replica reads it, and
// returns the listening replicas that still serve the old ETag after
// hearing rounds of the check's announcements (none: the change reached
// them all), and how many they heard.
func (f *replicas) reach(t *testing.T, id int32, write func(context.Context) error, what string) ([]string, int) {
	t.Helper()
	old := tags(t, f.rs, id)
	if err := readWhile(t, f.rs, id, write); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return f.settle(t, func() []string {
		var late []string
		for i, tag := range tags(t, f.rs, id) {
			if f.ls[i] != nil && tag == old[i] {
				late = append(late, f.rs[i].Name)
			}
		}
		return late
	})
}

// changeVia is reach for Change(ctx, via, id).
func (f *replicas) changeVia(t *testing.T, via *replica.Replica, id int32) ([]string, int) {
	t.Helper()
	return f.reach(t, id, func(ctx context.Context) error { return change(ctx, via, id) },
		fmt.Sprintf("Change(%d) through %s", id, via.Name))
}

// afterHearing says, for a failure, what the stale replicas had heard.
func afterHearing(heard int) string {
	if heard == 0 {
		return "once Change had returned"
	}
	return fmt.Sprintf("after hearing %d announcement(s) the check made on %s once Change had returned "+
		"(Redis delivers a channel's messages in the order they were published: an announcement made in Change reaches each listener before them)",
		heard, replica.Channel)
}

// stalenessOf runs write, then the readers (one replica each) read an
// item in a loop (internal/harness/stalewindow, the loop the bench's stale
// rows use too); it returns how long after write returned each still
// served the old ETag (0: not once).
func stalenessOf(t *testing.T, readers []stalewindow.Read, write func(context.Context) error, what string) []time.Duration {
	t.Helper()
	changed := func(ctx context.Context) error {
		if err := write(ctx); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		return nil
	}
	// Every replica is read every 200 µs: pacing, not a wait.
	poll := stalewindow.Poll{Pause: 200 * time.Microsecond, Limit: stalewindow.Limit(burstTTL)}
	got, err := stalewindow.Measure(t.Context(), readers, changed, poll)
	if err != nil {
		t.Fatal(err)
	}
	return got.Stale
}

// ages watches the copies one replica's memory serves. The memory tier
// hands every read of a copy the same bytes, so a copy is known by its
// first byte's address (held here, so never reused), and its age at a read
// is how long after the first read that returned it this read started.
// The tier stored the copy before that first read returned and keeps it a
// TTL: a right tier serves no copy a TTL old, however slow the machine,
// for both ends of an age come from one clock around the same reads.
type ages struct {
	mu     sync.Mutex
	first  map[*byte]time.Time
	oldest time.Duration
}

// read is a stalewindow.Read of id on r that records each copy's age.
func (a *ages) read(r *replica.Replica, id int32) stalewindow.Read {
	return func(ctx context.Context) (string, error) {
		start := time.Now()
		b, err := r.Get(ctx, id)
		if err != nil {
			return "", fmt.Errorf("%s: Get(%d): %w", r.Name, id, err)
		}
		if len(b) > 0 {
			a.mu.Lock()
			if first, ok := a.first[&b[0]]; ok {
				a.oldest = max(a.oldest, start.Sub(first))
			} else {
				a.first[&b[0]] = time.Now()
			}
			a.mu.Unlock()
		}
		return conditional.Tag(b), nil
	}
}

func forgets() float64 { return testutil.ToFloat64(metrics.MemoryForgets) }

// The property of step 10: a change made through any replica reaches every
// replica's memory, whichever replica made it, change after change: once a
// listener has heard what was announced after Change returned, it serves
// the new item. The bound is counted (rounds announcements), not timed.
func TestAChangeReachesEveryReplicaWithinTheBound(t *testing.T) {
	var seen []string // logged last: a failure's message comes first
	t.Cleanup(func() {
		if len(seen) > 0 { // the first change failing leaves nothing to say
			t.Log(strings.Join(seen, "\n"))
		}
	})
	f := fleet(t, 4, func(int) bool { return true })
	rs := f.rs
	const changes = 6
	for k := range changes {
		via := rs[k%len(rs)]
		id := int32(1001 + k%3) // each item changes twice, through two replicas
		f0 := forgets()
		lt, heard := f.changeVia(t, via, id)
		if len(lt) == 0 {
			seen = append(seen, fmt.Sprintf("change %d (item %d) through %s: every replica served the new item after hearing %d of the check's announcements", k+1, id, via.Name, heard))
			continue
		}
		before := ""
		switch k {
		case 0:
		case 1:
			before = "; the 1st change reached every replica"
		default:
			before = fmt.Sprintf("; the %d changes before it reached every replica", k)
		}
		t.Fatalf("change %d of %d (item %d through %s): %s still served the old ETag %s%s; %v forgets were counted during this one, over %d replicas; %s. "+
			"Change must publish the id on replica.Channel after r.Write, and Listen Forget every id it hears, for as long as it runs",
			k+1, changes, id, via.Name, and(lt), afterHearing(heard), before, forgets()-f0, len(rs), f.states())
	}
}

// The replica that made a change serves it too: it hears its own
// announcement like the others (or forgets at once).
func TestTheReplicaThatWroteServesItsOwnChange(t *testing.T) {
	f := fleet(t, 1, func(int) bool { return true })
	for k := range 2 {
		id := int32(1051 + k)
		if lt, heard := f.changeVia(t, f.rs[0], id); len(lt) > 0 {
			t.Fatalf("a lone replica changed item %d: it still served its own old ETag %s; %s",
				id, afterHearing(heard), f.states())
		}
	}
}

// Many items changed at once through every replica: each replica forgets
// each of them, not only one, nor only the last.
func TestEveryReplicaHearsEveryChangeUnderConcurrentWrites(t *testing.T) {
	f := fleet(t, 4, func(int) bool { return true })
	ctx := t.Context()
	ids := make([]int32, 12)
	old := map[string]string{} // replica/id → the ETag before
	for k := range ids {
		ids[k] = int32(1501 + k)
		for i, tag := range tags(t, f.rs, ids[k]) {
			old[fmt.Sprint(f.rs[i].Name, ids[k])] = tag
		}
	}
	errs := make([]error, len(ids))
	var wg sync.WaitGroup
	for k, id := range ids {
		wg.Go(func() { errs[k] = change(ctx, f.rs[k%len(f.rs)], id) })
	}
	wg.Wait()
	for k, err := range errs {
		if err != nil {
			t.Fatalf("Change(%d) through %s, beside %d other changes: %v", ids[k], f.rs[k%len(f.rs)].Name, len(ids)-1, err)
		}
	}
	stale, heard := f.settle(t, func() []string {
		var stale []string
		for _, r := range f.rs {
			var items []string
			for _, id := range ids {
				if tags(t, []*replica.Replica{r}, id)[0] == old[fmt.Sprint(r.Name, id)] {
					items = append(items, fmt.Sprint(id))
				}
			}
			if len(items) > 0 {
				stale = append(stale, fmt.Sprintf("%s %d of them (%s)", r.Name, len(items), strings.Join(items, ", ")))
			}
		}
		return stale
	})
	if len(stale) > 0 {
		t.Fatalf("%d items changed at once through %d replicas: still serving the old ETag %s: %s; %s. Every replica must forget every id announced",
			len(ids), len(f.rs), afterHearing(heard), strings.Join(stale, "; "), f.states())
	}
}

// The server cancels a request's context when the handler returns. A
// Change that leaves the announcement to a goroutine on that context loses
// it; the change must be announced however soon ctx ends after Change
// returns.
func TestAChangeIsAnnouncedWhenItsContextEndsAsItReturns(t *testing.T) {
	f := fleet(t, 3, func(int) bool { return true })
	// One P while it runs: a goroutine Change starts cannot run before
	// Change's caller cancels ctx, which makes a lost announcement certain
	// rather than a race.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for k := range 3 {
		id, via := int32(1401+k), f.rs[k%len(f.rs)]
		lt, heard := f.reach(t, id, func(ctx context.Context) error {
			ctx, cancel := context.WithCancel(ctx)
			defer cancel() // as soon as Change returns, as net/http does
			return change(ctx, via, id)
		}, fmt.Sprintf("Change(%d) through %s", id, via.Name))
		if len(lt) > 0 {
			t.Fatalf("Change(ctx, %d) through %s returned and its ctx was cancelled at once, as the server's request context is when the handler returns: %s still served the old ETag %s; %s. "+
				"Announce the change before Change returns: a publish left to a goroutine on the request's ctx is dropped once ctx ends",
				id, via.Name, and(lt), afterHearing(heard), f.states())
		}
	}
}

// Redis drops pub/sub connections (a restart, a failover, CLIENT KILL). A
// listener that keeps receiving is subscribed again by go-redis and hears
// the changes made after; what was published meanwhile is lost, the TTL
// bounds that.
func TestInvalidationSurvivesAKilledPubSubConnection(t *testing.T) {
	f := fleet(t, 3, func(int) bool { return true })
	for kill := 1; kill <= 2; kill++ {
		n, err := f.admin.Do(t.Context(), "CLIENT", "KILL", "TYPE", "pubsub").Int()
		if err != nil {
			bubble.Stalled(t, patience, fmt.Sprintf("Redis answer the check's own CLIENT KILL TYPE pubsub (%v)", err))
		}
		if missing := f.awaitSubscribed(t); len(missing) > 0 {
			t.Fatalf("after CLIENT KILL TYPE pubsub (the %s time, %d connections killed), %s did not subscribe again: Listen returned; %s. "+
				"go-redis reconnects and subscribes again while you keep receiving (sub.Channel(), or ReceiveMessage in a loop): a receive error is not the end",
				ordinal(kill), n, and(missing), f.states())
		}
		if deaf := f.awaitHearing(t); len(deaf) > 0 {
			t.Fatalf("after CLIENT KILL TYPE pubsub (the %s time) every listener was subscribed again, yet %s returned having forgotten none of the check's announcements (one every 50 ms, each of an id of its own); %s",
				ordinal(kill), and(deaf), f.states())
		}
		id, via := int32(1300+kill), f.rs[kill%len(f.rs)]
		if lt, heard := f.changeVia(t, via, id); len(lt) > 0 {
			t.Fatalf("after CLIENT KILL TYPE pubsub (the %s time) every listener was subscribed again, yet a change of item %d through %s then: %s still served the old ETag %s; %s",
				ordinal(kill), id, via.Name, and(lt), afterHearing(heard), f.states())
		}
	}
}

// Pub/sub keeps nothing: a replica disconnected while a change was
// announced never hears of it. Its memory tier still expires, so it serves
// the new item within the burst TTL — the bound the exercise must not
// take away (no "cache until told" without a TTL).
func TestAReplicaThatMissedTheMessageConvergesWithinTheTTL(t *testing.T) {
	var seen []string // logged last: a failure's message comes first
	t.Cleanup(func() {
		if len(seen) > 0 {
			t.Log(strings.Join(seen, "\n"))
		}
	})
	rs := fleet(t, 3, func(i int) bool { return i != 2 }).rs
	for k := range 3 {
		id, via := int32(1101+k), rs[k%2]
		a := &ages{first: map[*byte]time.Time{}}
		stale := stalenessOf(t, []stalewindow.Read{a.read(rs[2], id)}, func(ctx context.Context) error { return change(ctx, via, id) },
			fmt.Sprintf("Change(%d) through %s", id, via.Name))[0]
		// Judged by the copies' age, not by the time since Change: a
		// copy reloaded just before the write's commit, on a machine slow
		// enough, is a right tier's too, and lives its own TTL.
		if a.oldest >= burstTTL {
			t.Fatalf("change of item %d through %s: the replica that missed the announcement served one copy of the item %v after it first served it (the old one %v after the change), want less than the burst TTL (%v): the memory tier must keep expiring entries",
				id, via.Name, a.oldest.Round(time.Millisecond), stale.Round(time.Millisecond), burstTTL)
		}
		seen = append(seen, fmt.Sprintf("item %d: the replica that missed the announcement served the old ETag %v after the change (burst TTL %v)", id, stale.Round(time.Millisecond), burstTTL))
	}
}

// The change endpoint: bad ids are the client's fault, unknown items are
// 404, and Change passes on r.Write's error. An unknown item is not
// announced as changed.
func TestTheChangeEndpointRefusesBadAndUnknownItems(t *testing.T) {
	rdb := patient(t)
	heard := rdb.Subscribe(t.Context(), replica.Channel)
	defer heard.Close()
	if _, err := heard.Receive(t.Context()); err != nil { // subscribed before the changes
		bubble.Stalled(t, patience, fmt.Sprintf("Redis answer the check's own SUBSCRIBE %s (%v)", replica.Channel, err))
	}
	// Listen off: nothing stops this server's Listen at the end of the test.
	srv := newServer(stacktest.Store(t), patient(t), serverenv.Config{Replica: "r1", Invalidation: true, Listen: false})
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
	err := change(t.Context(), newReplica("r", stacktest.Store(t), patient(t), time.Second, time.Second), 100_001)
	if !errors.Is(err, catalog.ErrNotFound) {
		t.Errorf("Change of an unknown item returned %v, want r.Write's catalog.ErrNotFound", err)
	}
	// Redis delivers in order: everything announced above comes before this.
	const end = "end of the check's changes"
	if err := rdb.Publish(t.Context(), replica.Channel, end).Err(); err != nil {
		bubble.Stalled(t, patience, fmt.Sprintf("Redis answer the check's own PUBLISH (%v)", err))
	}
	ctx, cancel := context.WithTimeout(t.Context(), patience)
	defer cancel()
	for {
		m, err := heard.ReceiveMessage(ctx)
		if ctx.Err() != nil {
			bubble.Stalled(t, patience, "the check's own message on "+replica.Channel+" come back from Redis")
		}
		if err != nil {
			bubble.Stalled(t, patience, fmt.Sprintf("the check's own message on %s come back from Redis (%v)", replica.Channel, err))
		}
		if m.Payload == end {
			return
		}
		if m.Payload == "100001" {
			t.Fatalf("%q was announced on %s, yet item 100001 does not exist (r.Write failed): announce only a change that was written", m.Payload, replica.Channel)
		}
	}
}
