package main

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/given/events"
	"github.com/peakload/workshop/internal/harness/bubble"
)

// recorder is a database stand-in for the batcher's checks: it records
// every write it is given (fast, no services), and can fail — wholly or
// for some documents — get stuck, or refuse documents for good. It never
// crashes on what a wrong batcher sends it (nil documents, writes after
// Close, writes from several goroutines): it notes them, and the checks
// report what it noted.
type recorder struct {
	mu       sync.Mutex
	calls    [][]int           // the event ids each write was sent, in order
	seen     map[int]int       // event n → times written
	at       map[int]time.Time // event n → when it was first written
	offered  map[int]int       // poison event n → times sent to the database
	dead     map[int]int       // poison event n → times dead-lettered
	strange  int               // documents sent that are no event of the test
	late     int               // writes after Close returned
	closed   bool              // Close has returned
	fail     int               // the next fail writes fail wholly
	failPart int               // the next failPart writes fail for some documents
	// partFails picks the documents a partly failing write does not write
	// (by id, or by position in the write); the others are written.
	partFails func(n, pos int) bool
	stuck     chan struct{}    // when set, a write waits for it to close (at most an hour)
	poison    func(n int) bool // events the database refuses for good
	troubled  []span           // when writes were failing
}

// span is a time the database was failing: from a failed write to the
// next write that did not fail.
type span struct{ from, to time.Time }

func newRecorder() *recorder {
	return &recorder{seen: map[int]int{}, at: map[int]time.Time{}, offered: map[int]int{}, dead: map[int]int{},
		partFails: func(_, pos int) bool { return pos%2 == 1 }}
}

// idOf is the event number a document carries in its _id; ok is false for
// anything else (a nil document, say), which the recorder counts instead.
func idOf(d bson.D) (int, bool) {
	n, ok := events.IDOf(d).(int)
	return n, ok
}

func (r *recorder) write(_ context.Context, docs []bson.D) ([]bson.D, error) {
	r.mu.Lock()
	stuck := r.stuck
	r.mu.Unlock()
	if stuck != nil {
		select { // a timer, not only the channel: a check that never unsticks it still ends
		case <-stuck:
		case <-time.After(time.Hour):
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		r.late++
	}
	ids := make([]int, 0, len(docs))
	var good []bson.D
	var refused events.Refused
	for _, d := range docs {
		n, ok := idOf(d)
		switch {
		case !ok:
			r.strange++
			continue
		case r.poison != nil && r.poison(n):
			r.offered[n]++
			refused = append(refused, events.Refusal{Doc: d, Reason: "invalid_key", Err: fmt.Errorf("invalid key in document %d", n)})
		default:
			good = append(good, d)
		}
		ids = append(ids, n)
	}
	r.calls = append(r.calls, ids)
	switch {
	case r.fail > 0:
		r.fail--
		r.trouble(true)
		return slices.Clone(docs), errors.New("connection refused")
	case r.failPart > 0:
		r.failPart--
		var failed, written []bson.D
		for i, d := range good {
			if n, _ := idOf(d); r.partFails(n, i) {
				failed = append(failed, d)
			} else {
				written = append(written, d)
			}
		}
		r.record(written)
		r.trouble(len(failed) > 0)
		return append(failed, refusedDocs(refused)...), events.JoinRefused(
			fmt.Errorf("connection reset: %d of %d documents not written", len(failed), len(docs)), refused)
	}
	r.trouble(false)
	r.record(good)
	if len(refused) > 0 { // as events.Store.InsertMany: refused documents are not written, and said so
		return refusedDocs(refused), refused
	}
	return nil, nil
}

// trouble notes whether this write failed: a failure opens a span, the
// next write that does not fail closes it. Called with r.mu held.
func (r *recorder) trouble(failed bool) {
	open := len(r.troubled) > 0 && r.troubled[len(r.troubled)-1].to.IsZero()
	switch {
	case failed && !open:
		r.troubled = append(r.troubled, span{from: time.Now()})
	case !failed && open:
		r.troubled[len(r.troubled)-1].to = time.Now()
	}
}

// failingDuring says whether the database failed at some time in [from, to].
func (r *recorder) failingDuring(from, to time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range r.troubled {
		if !s.from.After(to) && (s.to.IsZero() || !s.to.Before(from)) {
			return true
		}
	}
	return false
}

func refusedDocs(refused events.Refused) []bson.D {
	docs := make([]bson.D, len(refused))
	for i, x := range refused {
		docs[i] = x.Doc
	}
	return docs
}

// deadLetter is the dead-letter collection's stand-in.
func (r *recorder) deadLetter(_ context.Context, refused events.Refused) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, x := range refused {
		if n, ok := idOf(x.Doc); ok {
			r.dead[n]++
		} else {
			r.strange++
		}
	}
	return nil
}

// poisoned returns poison event n → times sent, and → times dead-lettered.
func (r *recorder) poisoned() (offered, dead map[int]int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return maps.Clone(r.offered), maps.Clone(r.dead)
}

// record notes docs as written. Called with r.mu held.
func (r *recorder) record(docs []bson.D) {
	for _, d := range docs {
		n, _ := idOf(d)
		if r.seen[n]++; r.seen[n] == 1 {
			r.at[n] = time.Now()
		}
	}
}

// sent returns the ids of every write, in order.
func (r *recorder) sent() [][]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([][]int, len(r.calls))
	for i, c := range r.calls {
		out[i] = slices.Clone(c)
	}
	return out
}

// sizes returns how many documents each write was sent.
func (r *recorder) sizes() []int {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]int, len(r.calls))
	for i, c := range r.calls {
		out[i] = len(c)
	}
	return out
}

// written returns how many events were written, counting repeats.
func (r *recorder) written() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, c := range r.seen {
		n += c
	}
	return n
}

// timesWritten returns event n → times written, copied under the lock:
// a wrong batcher may still be writing (a timer callback after Close), and
// reading the map while it does would crash the check, not fail it.
func (r *recorder) timesWritten() map[int]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return maps.Clone(r.seen)
}

// writtenAt returns event n → when it was first written.
func (r *recorder) writtenAt() map[int]time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	return maps.Clone(r.at)
}

// markClosed notes that Close has returned: any later write is late.
func (r *recorder) markClosed() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
}

func (r *recorder) setFail(whole, part int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.fail, r.failPart = whole, part
}

// unstick lets a stuck database answer again.
func (r *recorder) unstick() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stuck != nil {
		close(r.stuck)
		r.stuck = nil
	}
}

// oddities says what the database was sent that no right batcher sends:
// documents that are no event of the test, writes after Close returned.
func (r *recorder) oddities() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var say []string
	if r.strange > 0 {
		say = append(say, fmt.Sprintf("%d documents that are no event the test added (nil, or without its _id)", r.strange))
	}
	if r.late > 0 {
		say = append(say, fmt.Sprintf("%d writes after Close had returned", r.late))
	}
	if len(say) == 0 {
		return ""
	}
	return "the database was sent " + strings.Join(say, " and ")
}

// checkOddities fails the test if the recorder noted something no right
// batcher does.
func checkOddities(t *testing.T, r *recorder) {
	t.Helper()
	if odd := r.oddities(); odd != "" {
		t.Fatalf("%s: a batch holds only documents taken from b.queue while it is open (a closed channel yields nil documents: "+
			"check ok in `doc, ok := <-b.queue`), and run has written everything before Close returns", odd)
	}
}

// doc is event n; its _id is what a refusal names (events.Refusal).
func doc(n int) bson.D { return bson.D{{Key: "_id", Value: n}} }

// errPanicked is what add and closeWithin return when the batcher panicked:
// the check reports it instead of crashing with it.
type errPanicked struct{ v any }

func (e errPanicked) Error() string { return fmt.Sprintf("panicked: %v", e.v) }

// add calls b.Add, turning a panic into an error.
func add(b *Batcher, n int) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = errPanicked{p}
		}
	}()
	return b.Add(doc(n))
}

// addAll adds events from..to-1 and fails the test on any refusal.
func addAll(t *testing.T, b *Batcher, from, to int) {
	t.Helper()
	for n := from; n < to; n++ {
		if err := add(b, n); err != nil {
			t.Fatalf("Add(event %d): %v, want nil (the buffer has room)", n, err)
		}
	}
}

// closeWithin calls b.Close with a deadline of d, turning a panic into an
// error. Inside a synctest bubble d is fake time: a wait that cannot end
// costs nothing.
func closeWithin(b *Batcher, d time.Duration) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = errPanicked{p}
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	return b.Close(ctx)
}

// shutAtEnd closes b and unsticks r when the test ends, so no goroutine of
// the batcher outlives the test's bubble.
func shutAtEnd(t *testing.T, b *Batcher, r *recorder) {
	t.Cleanup(func() {
		r.unstick()
		_ = closeWithin(b, time.Hour)
	})
}

// batcherFor is a batcher writing to r, shut at the test's end (r's stuck
// writes let go first), so no test leaves its goroutines behind.
func batcherFor(t *testing.T, r *recorder, size, capacity int, interval time.Duration) *Batcher {
	t.Helper()
	b := New(size, capacity, interval, r.write)
	shutAtEnd(t, b, r)
	return b
}

// inBubble runs f under testing/synctest: fake time, which moves only when
// every goroutine of the test and the batcher waits, so a timer property is
// exact however loaded the machine. Two guards turn what would crash or
// hang the check into a failure that says what was seen.
func inBubble(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	if deadlock := inBubbleFor(t, 20*time.Second, f); deadlock != "" {
		t.Fatalf("%s", deadlock)
	}
}

// inBubbleFor is inBubble's guards (internal/harness/bubble), in this step's
// words. A deadlock synctest finds (every goroutine blocked with no timer
// to wake one, or the batcher's goroutines blocked for ever after the test)
// comes back as a sentence. A bubble still busy after limit of real time —
// a goroutine that never waits, or one blocked on a mutex, so fake time
// cannot move — is reported, with what each goroutine of the batcher was
// doing, and the test binary stops: nothing else could end that goroutine.
func inBubbleFor(t *testing.T, limit time.Duration, f func(t *testing.T)) (deadlock string) {
	t.Helper()
	return bubble.Watched(t, limit, func() []string {
		return []string{"In a batcher that is: a lock held around b.flush while a write is stuck (the other goroutines " +
			"wait on the lock), or a loop that never waits (on a closed b.queue, say — a `break` inside select leaves " +
			"the select, not the for loop)."}
	}, func(err error) string {
		return fmt.Sprintf("synctest found a deadlock (%v): the test and the batcher's goroutines all waited on each other "+
			"with no timer running — a goroutine of the batcher blocked for ever (it never returned after Close, or Add blocked)", err)
	}, f)
}
