package main

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/given/counters"
	"github.com/peakload/workshop/internal/given/events"
	"github.com/peakload/workshop/internal/given/writes"
	"github.com/peakload/workshop/internal/harness/testseed"
)

// The generated schedules: random interleavings of increments over a few
// ids, flushes, flushes that fail whole, flushes in which some ids fail,
// flushes whose acknowledgement is lost, and a final Close, played through
// counters.Idempotent(Reduce(c)) as main.go wires it, against fakeMongo.
// The harness plays step 6's batcher: a flush that returned documents to
// retry is retried (same batch) before anything new is written. After every
// flush the outcome is compared with a model of what the database holds.
//
// A failure prints the seed and the shortest schedule that still fails;
// PEAKLOAD_SEED=<seed> go test -short -run Generated ./steps/07-counters/
// replays that seed alone.

type opKind int

const (
	opInc     opKind = iota // n increments of one id, buffered
	opFlush                 // the database takes the whole command
	opDown                  // the whole command fails, nothing applied
	opPartial               // the ids in fail fail, the others apply
	opLostAck               // the command applies, its reply is lost
)

type op struct {
	kind opKind
	id   string
	n    int
	fail []string // opPartial
}

func (o op) String() string {
	switch o.kind {
	case opInc:
		return fmt.Sprintf("inc %s×%d", o.id, o.n)
	case opFlush:
		return "flush"
	case opDown:
		return "flush(down)"
	case opPartial:
		return "flush(fail " + strings.Join(o.fail, ",") + ")"
	default:
		return "flush(reply lost)"
	}
}

func showSchedule(s []op) string {
	parts := make([]string, 0, len(s)+1)
	for _, o := range s {
		parts = append(parts, o.String())
	}
	return strings.Join(append(parts, "close"), "; ")
}

var modelIDs = []string{"a", "b", "c", "d", "e", "f"}

func generate(seed uint64) []op {
	r := rand.New(rand.NewPCG(seed, 7))
	s := make([]op, 4+r.IntN(24))
	for i := range s {
		switch p := r.IntN(100); {
		case p < 50:
			s[i] = op{kind: opInc, id: modelIDs[r.IntN(len(modelIDs))], n: 1 + r.IntN(4)}
		case p < 68:
			s[i] = op{kind: opFlush}
		case p < 76:
			s[i] = op{kind: opDown}
		case p < 90:
			var fail []string
			for _, id := range modelIDs {
				if r.IntN(2) == 0 {
					fail = append(fail, id)
				}
			}
			s[i] = op{kind: opPartial, fail: fail}
		default:
			s[i] = op{kind: opLostAck}
		}
	}
	return s
}

// model is what the database must hold, and the batch in flight.
type model struct {
	store    map[string]int64 // applied, per id
	total    map[string]int64 // accepted, per id
	queue    []bson.D         // buffered, not yet in a batch
	inflight []bson.D         // a batch to retry
	done     map[string]bool  // ids of the batch in flight already applied
}

// play runs schedule s and returns what it observed first that the model
// forbids, or "".
func play(s []op) (problem string) {
	c, f := newFakeCounters()
	write := counters.Idempotent(Reduce(c))
	m := &model{store: map[string]int64{}, total: map[string]int64{}, done: map[string]bool{}}
	p0 := persisted()
	for i, o := range s {
		if o.kind == opInc {
			for range o.n {
				m.queue = append(m.queue, counters.Doc(o.id))
			}
			m.total[o.id] += int64(o.n)
			continue
		}
		if msg := m.flush(f, write, o); msg != "" {
			return fmt.Sprintf("step %d (%s): %s", i+1, o, msg)
		}
	}
	for try := 0; len(m.queue) > 0 || len(m.inflight) > 0; try++ { // close: flush until nothing is left
		if try == 3 {
			return "close: the database healthy, 3 flushes still left increments to retry"
		}
		if msg := m.flush(f, write, op{kind: opFlush}); msg != "" {
			return "close: " + msg
		}
	}
	if got := only(f.values(), keys(m.total)); !maps.Equal(got, m.total) {
		return fmt.Sprintf("after close the counters are %s, want the increments %s", show(got), show(m.total))
	}
	var n int64
	for _, v := range m.total {
		n += v
	}
	if got := persisted() - p0; got != float64(n) {
		return fmt.Sprintf("after close metrics.EventsPersisted grew by %v, want %d (the increments)", got, n)
	}
	return ""
}

// flush writes the batch in flight (or the buffered increments) with the
// fault of o, and checks the round trip, the retry, the error, the
// counters and metrics.EventsPersisted against the model.
func (m *model) flush(f *fakeMongo, write writes.WriteFunc, o op) string {
	batch := m.inflight
	if batch == nil {
		batch, m.queue = m.queue, nil
		clear(m.done)
	}
	if len(batch) == 0 {
		return ""
	}
	count := perID(batch)
	sent := map[string]int64{} // what the update command must hold: one $inc per id not yet applied
	for id, n := range count {
		if !m.done[id] {
			sent[id] = n
		}
	}
	failed := map[string]bool{}
	switch o.kind {
	case opDown, opLostAck:
		failed = keys(sent)
	case opPartial:
		for _, id := range o.fail {
			if _, ok := sent[id]; ok {
				failed[id] = true
			}
		}
	}
	var failIDs map[string]bool
	if o.kind == opPartial {
		failIDs = setOf(o.fail)
	}
	f.arm(o.kind == opDown, o.kind == opLostAck, failIDs)
	mark, p := f.mark(), persisted()
	retry, err, bad := callWrite(write, context.Background(), batch)
	f.arm(false, false, nil)
	if bad != "" {
		return bad
	}
	wantTrips := 1
	if len(sent) == 0 {
		wantTrips = 0 // every id applied by an earlier attempt of this batch
	}
	trips := f.roundTrips(mark)
	if len(trips) != wantTrips {
		why := tripsHint(trips)
		if wantTrips == 0 {
			why = "every id of this retried batch was applied by an earlier attempt whose reply was lost; " +
				"IncMany skips them when the ctx it gets carries the batch's number (pass your write's ctx on)"
		}
		return fmt.Sprintf("a flush of %d increments over %d ids made %d update commands (%s), want %d: %s",
			len(batch), len(count), len(trips), showTrips(trips), wantTrips, why)
	}
	if wantTrips == 1 {
		if got := incsPerID(trips[0]); len(trips[0]) != len(sent) || !maps.Equal(got, sent) {
			return fmt.Sprintf("the update command held %d $inc, totals %s; want one per id, %s", len(trips[0]), show(got), show(sent))
		}
	}
	wantRetry := only(count, failed)
	if got := perID(retry); !maps.Equal(got, wantRetry) {
		return fmt.Sprintf("%d of %d ids failed (%s); the write returned %d to retry, per id %s; want %s",
			len(failed), len(sent), strings.Join(slices.Sorted(maps.Keys(failed)), ","), len(retry), show(got), show(wantRetry))
	}
	if (err != nil) != (len(failed) > 0) {
		return fmt.Sprintf("%d ids failed and the write returned error %v", len(failed), err)
	}
	for id, n := range sent {
		if !failed[id] || o.kind == opLostAck {
			m.store[id] += n
			m.done[id] = true
		}
	}
	if got := only(f.values(), keys(m.total)); !maps.Equal(got, only(m.store, keys(m.total))) {
		return fmt.Sprintf("the counters are %s, want %s", show(got), show(m.store))
	}
	var nRetry int64
	for _, n := range wantRetry {
		nRetry += n
	}
	if got, want := persisted()-p, float64(int64(len(batch))-nRetry); got != want {
		return fmt.Sprintf("metrics.EventsPersisted grew by %v, want %v (the requests not to retry)", got, want)
	}
	m.inflight = nil
	if len(retry) > 0 {
		m.inflight = retry
	}
	return ""
}

func incsPerID(incs []events.Inc) map[string]int64 {
	m := map[string]int64{}
	for _, in := range incs {
		m[in.ID] += in.N
	}
	return m
}

func setOf(ids []string) map[string]bool {
	s := map[string]bool{}
	for _, id := range ids {
		s[id] = true
	}
	return s
}

// shrink drops operations one at a time while the schedule still fails.
func shrink(s []op) ([]op, string) {
	problem := play(s)
	for changed := true; changed; {
		changed = false
		for i := range s {
			t := slices.Delete(slices.Clone(s), i, i+1)
			if p := play(t); p != "" {
				s, problem, changed = t, p, true
				break
			}
		}
	}
	return s, problem
}

func TestGeneratedSchedulesMatchTheModel(t *testing.T) {
	seeds := testseed.Seeds(t, 300)
	for _, seed := range seeds {
		s := generate(seed)
		if play(s) == "" {
			continue
		}
		short, problem := shrink(s)
		t.Fatalf("seed %d: %s\n  shortest failing schedule (%d of %d steps): %s\n  replay: PEAKLOAD_SEED=%d go test -short -run Generated ./steps/07-counters/",
			seed, problem, len(short), len(s), showSchedule(short), seed)
	}
}
