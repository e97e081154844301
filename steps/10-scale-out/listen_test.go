package main

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/peakload/workshop/internal/given/replica"
	"github.com/peakload/workshop/internal/harness/bubble"
	burst "github.com/peakload/workshop/solutions/05-burst-cache"
)

// These tests need no services: Listen talks to a fake Redis over
// loopback (fakeredis_test.go), and the replica's memory keeps an item an
// hour, so only a Forget can make it load again.

// listener runs Listen in a goroutine the check owns: it records how
// Listen ended, and a panic in it fails the test instead of crashing it.
type listener struct {
	name string
	stop context.CancelFunc
	done chan struct{}
	mu   sync.Mutex
	err  error
	oops any // what Listen panicked with
}

// runListen runs Listen on a replica of the fake f until the test ends;
// then it must return, by what the fake sees (every goroutine waiting,
// nothing in flight), not by a clock.
func runListen(t *testing.T, f *fakeRedis, r *replica.Replica) *listener {
	t.Helper()
	l := startListen(r)
	t.Cleanup(func() {
		l.stop()
		if !f.await(t, "Listen return once its context ended", l.returned) {
			t.Errorf("Listen of %s did not return once its context ended: it and the client only waited. Return when ctx is done (and close the subscription). A read that blocks on the connection, such as go-redis's ReceiveMessage(ctx), does not end when ctx does: wait on ctx.Done() beside sub.Channel(), or close the subscription when ctx ends", l.name)
		}
	})
	return l
}

// startListen runs Listen; whoever calls it calls end.
func startListen(r *replica.Replica) *listener {
	ctx, stop := context.WithCancel(context.Background())
	l := &listener{name: r.Name, stop: stop, done: make(chan struct{})}
	go func() {
		defer close(l.done)
		defer func() {
			if v := recover(); v != nil {
				l.mu.Lock()
				l.oops = v
				l.mu.Unlock()
			}
		}()
		err := Listen(ctx, r)
		l.mu.Lock()
		l.err = err
		l.mu.Unlock()
	}()
	return l
}

// end cancels Listen's context and waits for it to return, on a real
// Redis. Whether it returns is judged against the fake (runListen,
// TestListenReturnsWhenItsContextEnds), where the check sees every byte:
// here, one still running at the deadline is no verdict.
func (l *listener) end(t *testing.T, deadline time.Time) {
	l.stop()
	select {
	case <-l.done:
	case <-time.After(time.Until(deadline)):
		bubble.Stalled(t, patience, fmt.Sprintf("Listen of %s return once its context ended", l.name))
	}
}

// returned says whether Listen has returned.
func (l *listener) returned() bool {
	select {
	case <-l.done:
		return true
	default:
		return false
	}
}

// state says whether Listen still runs, or how it ended.
func (l *listener) state() string {
	select {
	case <-l.done:
	default:
		return "Listen is still running"
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.oops != nil {
		return fmt.Sprintf("Listen panicked: %v", l.oops)
	}
	return fmt.Sprintf("Listen returned %v", l.err)
}

// fakeReplica is a replica on a fake Redis whose memory holds ids.
func fakeReplica(t *testing.T, f *fakeRedis, ids ...int32) *replica.Replica {
	r := &replica.Replica{Name: "r1", Redis: f.client(t), Memory: burst.New(time.Hour)}
	for _, id := range ids {
		cached(r, id)
	}
	return r
}

// cached says whether id is in r's memory (a read that loads nothing);
// the read puts it back if it was not.
func cached(r *replica.Replica, id int32) bool {
	loaded := false
	r.Memory.Get(context.Background(), id, func(context.Context, int32) ([]byte, error) {
		loaded = true
		return fmt.Appendf(nil, `{"id":%d}`, id), nil
	})
	return !loaded
}

// awaitSubscribed fails the test unless Listen subscribes before all it
// does is wait.
func awaitSubscribed(t *testing.T, f *fakeRedis, l *listener) {
	t.Helper()
	if f.await(t, "Listen subscribe", func() bool { return f.subscribed() > 0 }) {
		return
	}
	f.mu.Lock()
	others := f.others
	f.mu.Unlock()
	if len(others) > 0 {
		t.Fatalf("Listen subscribed to %q, not to %q (replica.Channel), and then only waited; %s", others, replica.Channel, l.state())
	}
	t.Fatalf("Listen did not subscribe to %q: it and the client only waited, with nothing left to send or read; %s: r.Redis.Subscribe(ctx, replica.Channel), then receive its messages", replica.Channel, l.state())
}

// A listener hears every announcement for as long as it runs, whatever
// the item and however often it changes, and a message that is not an id
// does not stop it.
func TestListenForgetsEveryItemAnnounced(t *testing.T) {
	f := startFakeRedis(t, replica.Channel)
	// 15 and 11 changed again; ids span int32, not only small ones.
	ids := []int32{11, 12, 13, 14, 15, 15, 11, 40_000, math.MaxInt32}
	r := fakeReplica(t, f, ids...)
	l := runListen(t, f, r)
	awaitSubscribed(t, f, l)
	msgs := []string{"11", "12", "item:42", "13", "", "14", "15", "15", "11", "40000", "2147483647"}
	var heard, missed []string
	junk, afterJunk := "", ""
	k := 0
	for _, m := range msgs {
		if k == len(ids) || m != fmt.Sprint(ids[k]) {
			junk = m // not an id: nothing to forget
			f.publish(m)
			continue
		}
		id, what := ids[k], fmt.Sprintf("%s (item %d)", ordinal(k+1), ids[k])
		k++
		f.publish(m)
		f.handled(t, "Listen handle the message "+strconv.Quote(m))
		if !cached(r, id) {
			heard = append(heard, what)
		} else {
			if len(missed) == 0 && junk != "" {
				afterJunk = junk
			}
			missed = append(missed, what)
		}
		junk = ""
	}
	if len(missed) == 0 {
		return
	}
	msg := fmt.Sprintf("%d announcements of an item id on %q: ", len(ids), replica.Channel)
	if len(heard) > 0 {
		msg += fmt.Sprintf("Listen forgot the %s; ", and(heard))
	}
	msg += fmt.Sprintf("the %s stayed in memory (each time Listen had read the message and all it did was wait)", and(missed))
	if afterJunk != "" {
		msg += fmt.Sprintf(", the first of them just after the message %q, which is not an id", afterJunk)
	}
	t.Fatalf("%s; %s. Keep receiving until ctx ends: Forget each id and skip a message that is not one", msg, l.state())
}

// slowMemory is a replica's memory whose Forget of one item waits until
// the test lets it go, as a Forget on a busy tier might, and which notes
// every Forget that began meanwhile.
type slowMemory struct {
	replica.Memory
	slow    int32
	let     chan struct{}
	once    sync.Once
	mu      sync.Mutex
	waiting bool    // Forget(slow) began and has not forgotten yet
	during  []int32 // the Forgets that began while it waited
}

func (m *slowMemory) Forget(id int32) {
	m.mu.Lock()
	if m.waiting {
		m.during = append(m.during, id)
	}
	slow := id == m.slow && !m.waiting
	m.waiting = m.waiting || slow
	m.mu.Unlock()
	if slow {
		<-m.let
		m.Memory.Forget(id)
		m.mu.Lock()
		m.waiting = false
		m.mu.Unlock()
		return
	}
	m.Memory.Forget(id)
}

func (m *slowMemory) release() { m.once.Do(func() { close(m.let) }) }

func (m *slowMemory) state() (waiting bool, during []int32) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.waiting, append([]int32(nil), m.during...)
}

// A listener handles each announcement to its end, the copy forgotten,
// before it takes the next: Redis delivers a channel's messages in the
// order they were published, so a replica that has heard a message has
// forgotten every item announced before it (the check's service tests,
// and a client reading after a 200, count on it). One whose Forget runs
// in a goroutine has moved on with the old copy still in memory.
func TestListenForgetsEachItemBeforeItTakesTheNext(t *testing.T) {
	f := startFakeRedis(t, replica.Channel)
	const first, next int32 = 31, 32
	m := &slowMemory{Memory: burst.New(time.Hour), slow: first, let: make(chan struct{})}
	r := &replica.Replica{Name: "r1", Redis: f.client(t), Memory: m}
	cached(r, first)
	cached(r, next)
	l := runListen(t, f, r)
	t.Cleanup(m.release) // before Listen is stopped: a Listen in Forget can return
	awaitSubscribed(t, f, l)
	f.publish(fmt.Sprint(first))
	if !f.await(t, fmt.Sprintf("Listen call Forget(%d)", first), func() bool { w, _ := m.state(); return w }) {
		t.Fatalf("item %d was announced and Listen read it, yet never called r.Memory.Forget(%d), and then only waited; %s", first, first, l.state())
	}
	f.publish(fmt.Sprint(next))
	began := func() bool { _, during := m.state(); return len(during) > 0 }
	if f.busy(t, fmt.Sprintf("Listen wait in its Forget(%d), or call Forget(%d)", first, next), began) {
		_, during := m.state()
		t.Fatalf("items %d then %d announced: Listen called Forget(%d) while its Forget(%d), held by the check as a busy memory tier would hold it, had not returned: it took the next message with item %d still in memory, so a replica that has heard a later announcement may still serve the old item. "+
			"Forget each id in Listen's own loop (not go r.Memory.Forget(id)) before taking the next message; %s",
			first, next, during[0], first, first, l.state())
	}
	m.release()
	f.handled(t, fmt.Sprintf("Listen handle the announcement of item %d", next))
	if cached(r, first) || cached(r, next) {
		t.Fatalf("items %d then %d announced, Listen let finish: one of them stayed in memory once Listen had read them and only waited; %s", first, next, l.state())
	}
}

// Pub/sub connections drop (a Redis restart, a failover, CLIENT KILL). A
// listener that keeps receiving gets a new one from go-redis, subscribed
// again; one that returns on the first error stops invalidating for good.
func TestListenHearsAgainAfterItsConnectionDrops(t *testing.T) {
	f := startFakeRedis(t, replica.Channel)
	ids := []int32{21, 22, 23}
	r := fakeReplica(t, f, ids...)
	l := runListen(t, f, r)
	awaitSubscribed(t, f, l)
	for drop, id := range ids {
		when := "before any drop"
		if drop > 0 {
			when = fmt.Sprintf("after the %s drop", ordinal(drop))
			f.drop()
			again := func() bool { return f.everSub > drop && f.subscribed() > 0 }
			subscribedAgain := f.await(t, "Listen subscribe again", again)
			if subscribedAgain {
				// A listener may swap its subscription (close the one go-redis
				// re-established, subscribe anew): announce once it has settled.
				f.handled(t, "Listen settle on its subscription")
				f.update(func() { subscribedAgain = again() })
			}
			if !subscribedAgain {
				t.Fatalf("the server closed Listen's pub/sub connection (the %s time; as a Redis restart or CLIENT KILL does): Listen did not subscribe again, and then only waited; %s. go-redis reconnects and subscribes again while you keep receiving: a receive error is not the end",
					ordinal(drop), l.state())
			}
		}
		// Announced once the fake has the subscription: what it sends
		// now reaches Listen (one sent while it swaps would be lost).
		f.publish(fmt.Sprint(id))
		f.handled(t, fmt.Sprintf("Listen handle the announcement of item %d", id))
		if cached(r, id) {
			t.Fatalf("item %d, announced %s of Listen's connection, stayed in memory once Listen had read it and only waited; %s", id, when, l.state())
		}
	}
}

// Listen runs for the replica's life: it returns when its context ends,
// and closes its subscription (a connection Redis would keep for nothing).
func TestListenReturnsWhenItsContextEnds(t *testing.T) {
	f := startFakeRedis(t, replica.Channel)
	l := runListen(t, f, fakeReplica(t, f))
	awaitSubscribed(t, f, l)
	l.stop()
	if !f.await(t, "Listen return", l.returned) {
		t.Fatal("Listen did not return once its context ended: it only waited: return when ctx is done")
	}
	if !f.await(t, "Listen close its subscription", func() bool { return f.subscribed() == 0 }) {
		t.Fatal("Listen returned, but its subscription was still open once all else only waited: close it (defer sub.Close())")
	}
}

func ordinal(n int) string {
	switch {
	case n%100 >= 11 && n%100 <= 13:
		return fmt.Sprintf("%dth", n)
	case n%10 == 1:
		return fmt.Sprintf("%dst", n)
	case n%10 == 2:
		return fmt.Sprintf("%dnd", n)
	case n%10 == 3:
		return fmt.Sprintf("%drd", n)
	}
	return fmt.Sprintf("%dth", n)
}

// and joins "a", "b", "c" as "a, b and c".
func and(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}
