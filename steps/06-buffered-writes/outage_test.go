package main

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/given/writes"
)

// A database down for far longer than one attempt's budget
// (writes.AttemptTimeout): once it is back, the event is written while the
// batcher runs, and a Close begun during a second outage returns once it
// is back, with that event written too. Each attempt needs its own
// deadline: one deadline shared by every retry has passed long before the
// database comes back, and no attempt after it can succeed; an attempt
// with none waits for ever on a connection to a database that went away.
func TestEachAttemptHasItsOwnBudget(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		const outage = 20 * writes.AttemptTimeout // 10 min of fake time: no shared budget outlasts it by luck
		// Once the database is back: the attempt under way may wait out its
		// budget, then one pause, then the next attempt writes.
		const backWithin = writes.AttemptTimeout + writes.MaxBackoff + time.Second
		o := newOutage()
		b := New(10, 100, time.Second, o.write)
		t.Cleanup(func() { o.release(); _ = closeWithin(b, time.Hour) }) // the verdict is in: let a wrong loop end
		o.setDown(true)
		addAll(t, b, 0, 1)
		time.Sleep(outage)
		o.setDown(false)
		time.Sleep(backWithin)
		synctest.Wait()
		if n := o.r.timesWritten()[0]; n != 1 {
			t.Fatalf("the database was down for %v, then back: %v later event 0 was written %d times; want once — %s",
				outage, backWithin, n, o.diagnosis())
		}
		o.setDown(true)
		addAll(t, b, 1, 2)
		closed := make(chan error, 1)
		go func() { closed <- closeWithin(b, outage+backWithin) }()
		time.Sleep(outage)
		o.setDown(false)
		if err := <-closed; err != nil {
			t.Fatalf("Close began while the database was down for %v; it was back %v before Close's deadline, yet Close said: %v — %s",
				outage, backWithin, err, o.diagnosis())
		}
		o.r.markClosed()
		if n := o.r.timesWritten()[1]; n != 1 {
			t.Fatalf("Close returned after an outage of %v with event 1 written %d times; want once — %s", outage, n, o.diagnosis())
		}
		checkOddities(t, o.r)
	})
}

// outage is a database the test takes down and brings back. While it is
// down an attempt waits until its context ends, as a driver waits on a
// server it cannot reach; an attempt begun then stays stuck after the
// database is back (its connection went to the old one). An attempt whose
// context has already ended fails at once, as a driver's does. Otherwise it
// writes through a recorder.
type outage struct {
	r        *recorder
	mu       sync.Mutex
	down     bool
	released chan struct{} // closed when the test ends: every attempt writes
	noBudget int           // attempts sent with no deadline
	dead     int           // attempts sent with a deadline already passed
}

func newOutage() *outage { return &outage{r: newRecorder(), released: make(chan struct{})} }

func (o *outage) setDown(down bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.down = down
}

func (o *outage) release() {
	o.mu.Lock()
	defer o.mu.Unlock()
	select {
	case <-o.released:
	default:
		close(o.released)
	}
}

func (o *outage) write(ctx context.Context, docs []bson.D) ([]bson.D, error) {
	o.mu.Lock()
	down, released := o.down, o.released
	if _, ok := ctx.Deadline(); !ok {
		o.noBudget++
	}
	if ctx.Err() != nil {
		o.dead++
	}
	o.mu.Unlock()
	select {
	case <-released:
		return o.r.write(ctx, docs)
	default:
	}
	if ctx.Err() != nil {
		return docs, fmt.Errorf("write: %w", ctx.Err())
	}
	if down {
		select {
		case <-ctx.Done():
			return docs, fmt.Errorf("server selection: %w (the test's outage)", ctx.Err())
		case <-released:
		}
	}
	return o.r.write(ctx, docs)
}

// diagnosis says what the attempts' contexts were, in the learner's words.
func (o *outage) diagnosis() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	switch {
	case o.dead > 0:
		return fmt.Sprintf("attempts were sent with a context whose deadline had already passed (%d of them): the retries share one deadline. "+
			"Give each attempt its own (context.WithTimeout inside the retry loop, as flush's writes.Persist does)", o.dead)
	case o.noBudget > 0:
		return fmt.Sprintf("attempts were sent with no deadline (%d of them): one stuck on the outage waits for ever. "+
			"Give each attempt its own (context.WithTimeout inside the retry loop, as flush's writes.Persist does)", o.noBudget)
	}
	return "retry the batch until it is written, each attempt with its own deadline (flush calls writes.Persist)"
}
