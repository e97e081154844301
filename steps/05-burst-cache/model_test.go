package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/peakload/workshop/internal/harness/testseed"
)

// TestRandomSchedulesAgainstAModel plays generated schedules — reads of a
// few ids, time passing, loads that fail, bursts of concurrent reads —
// under testing/synctest, and checks every Get against a model of what the
// cache holds: an id is a hit while its last good load is younger than the
// TTL (a miss otherwise, with exactly one call to next), a hit returns that
// load's item, a failed load is not kept, and each Get is counted once.
// A failure prints the seed and the shortest schedule that still fails;
// PEAKLOAD_SEED=<seed> replays it.

const modelTTL = 100 * time.Millisecond

type opKind int

const (
	opGet   opKind = iota
	opWait         // time passes
	opBurst        // concurrent Gets of one id, its load held until all wait
)

type op struct {
	kind    opKind
	id      int32
	fail    bool // next fails for this op
	callers int
	d       time.Duration
}

func (o op) String() string {
	var s string
	switch o.kind {
	case opWait:
		return fmt.Sprintf("wait %v", o.d)
	case opBurst:
		s = fmt.Sprintf("%d concurrent Gets of id %d", o.callers, o.id)
	default:
		s = fmt.Sprintf("Get(%d)", o.id)
	}
	if o.fail {
		s += ", next failing"
	}
	return s
}

// schedule is the seed's schedule: 5 to 40 operations over ids 1 to 4.
func schedule(seed uint64) []op {
	r := rand.New(rand.NewPCG(seed, 5))
	waits := []time.Duration{time.Millisecond, 10 * time.Millisecond, 40 * time.Millisecond, 99 * time.Millisecond,
		modelTTL, 101 * time.Millisecond, 250 * time.Millisecond, 5 * time.Second}
	ops := make([]op, 5+r.IntN(36))
	for i := range ops {
		id, fail := int32(1+r.IntN(4)), r.IntN(6) == 0
		switch x := r.IntN(20); {
		case x < 10:
			ops[i] = op{kind: opGet, id: id, fail: fail}
		case x < 16:
			ops[i] = op{kind: opWait, d: waits[r.IntN(len(waits))]}
		default:
			ops[i] = op{kind: opBurst, id: id, fail: fail, callers: 2 + r.IntN(9)}
		}
	}
	return ops
}

// known is what the model knows of an id.
type known struct {
	cached  bool
	written time.Time
	load    int // the load whose item is cached
}

// why says why the model expects a miss.
func (k *known) why(id int32) string {
	switch {
	case k.load == 0:
		return fmt.Sprintf("id %d was never loaded", id)
	case !k.cached:
		return fmt.Sprintf("id %d's last load failed", id)
	}
	return fmt.Sprintf("id %d's item was loaded %v before, the TTL is %v", id, time.Since(k.written), modelTTL)
}

// player plays a schedule on a fresh cache, in a bubble.
type player struct {
	memory *Cache
	tr     *tier
	ids    map[int32]*known
}

// play returns the index of the first operation whose outcome the model
// rejects (-1: none) and what was observed.
func play(ops []op) (int, string) {
	p := &player{memory: New(modelTTL), tr: newTier(), ids: map[int32]*known{}}
	for i, o := range ops {
		k := p.ids[o.id]
		if k == nil {
			k = &known{}
			p.ids[o.id] = k
		}
		var said string
		switch o.kind {
		case opWait:
			time.Sleep(o.d)
		case opGet:
			said = p.get(o, k)
		case opBurst:
			said = p.burst(o, k)
		}
		if said != "" {
			return i, said
		}
	}
	return -1, ""
}

// expect is what a read of k must do now: hit or load; at exactly the TTL
// either is right, and edge is true.
func expect(k *known) (hit, edge bool) {
	age := time.Since(k.written)
	return k.cached && age < modelTTL, k.cached && age == modelTTL
}

func (p *player) get(o op, k *known) string {
	hit, edge := expect(k)
	p.tr.setFailing(o.id, o.fail)
	loads, before := p.tr.count(o.id), lookups()
	b, err := get(context.Background(), p.memory, o.id, p.tr.get)
	loaded, c := p.tr.count(o.id)-loads, lookups().since(before)
	if edge {
		hit = loaded == 0
	}
	if said := p.loads(o.id, k, hit, loaded, -1); said != "" {
		return said
	}
	if said := p.outcome(o, k, hit, result{b, err}); said != "" {
		return said
	}
	if want := (counts{1, 0}); !hit {
		want = counts{0, 1}
		if c != want {
			return fmt.Sprintf("counted %v hits and %v misses, want 1 miss (it called next)", c.hits, c.misses)
		}
	} else if c != want {
		return fmt.Sprintf("counted %v hits and %v misses, want 1 hit (it was served from memory)", c.hits, c.misses)
	}
	p.update(o, k, hit)
	return ""
}

func (p *player) burst(o op, k *known) string {
	hit, edge := expect(k)
	p.tr.setFailing(o.id, o.fail)
	release := p.tr.hold(o.id)
	loads, before := p.tr.count(o.id), lookups()
	results := make(chan result, o.callers)
	for range o.callers {
		go func() {
			b, err := get(context.Background(), p.memory, o.id, p.tr.get)
			results <- result{b, err}
		}()
	}
	synctest.Wait()
	inFlight := p.tr.count(o.id) - loads
	release()
	var got []result
	for range o.callers {
		got = append(got, <-results)
	}
	loaded, c := p.tr.count(o.id)-loads, lookups().since(before)
	if edge {
		hit = loaded == 0
	}
	if said := p.loads(o.id, k, hit, loaded, inFlight); said != "" {
		return said
	}
	for _, r := range got {
		if said := p.outcome(o, k, hit, r); said != "" {
			return "a caller " + said
		}
	}
	if c.hits+c.misses != float64(o.callers) || (hit && c.misses != 0) || (!hit && c.misses < 1) {
		want := fmt.Sprintf("%d hits", o.callers)
		if !hit {
			want = "at least 1 miss"
		}
		return fmt.Sprintf("counted %v hits and %v misses, want %d lookups: %s", c.hits, c.misses, o.callers, want)
	}
	p.update(o, k, hit)
	return ""
}

// loads checks the calls to next against the model; inFlight is how many
// had started while the callers of a burst waited (-1: a lone Get).
func (p *player) loads(id int32, k *known, hit bool, loaded, inFlight int) string {
	during := ""
	if inFlight >= 0 {
		during = fmt.Sprintf(" (%s while the first load was in flight)", calls(inFlight))
	}
	switch {
	case hit && loaded != 0:
		return fmt.Sprintf("made %s to next%s, want none: id %d's item was loaded %v before, within the TTL of %v",
			calls(loaded), during, id, time.Since(k.written), modelTTL)
	case !hit && loaded != 1:
		return fmt.Sprintf("made %s to next%s, want 1: %s", calls(loaded), during, k.why(id))
	}
	return ""
}

func calls(n int) string {
	if n == 1 {
		return "1 call"
	}
	return fmt.Sprintf("%d calls", n)
}

// outcome checks what one Get returned.
func (p *player) outcome(o op, k *known, hit bool, r result) string {
	var le *loadError
	switch n := p.tr.count(o.id); {
	case hit && (r.err != nil || string(r.b) != item(o.id, k.load)):
		return fmt.Sprintf("got %q, %v; want the cached %q", r.b, r.err, item(o.id, k.load))
	case !hit && o.fail && (!errors.As(r.err, &le) || le.load != n):
		return fmt.Sprintf("got %q, %v; want the error of load %d, %q", r.b, r.err, n, (&loadError{o.id, n}).Error())
	case !hit && !o.fail && (r.err != nil || string(r.b) != item(o.id, n)):
		return fmt.Sprintf("got %q, %v; want the new load's %q", r.b, r.err, item(o.id, n))
	}
	return ""
}

func (p *player) update(o op, k *known, hit bool) {
	if hit {
		return
	}
	k.load = p.tr.count(o.id)
	k.cached = !o.fail
	if k.cached {
		k.written = time.Now()
	}
}

// outcome of one schedule: the failing operation (-1: none), what was
// observed, and whether the bubble hung.
type verdict struct {
	at   int
	said string
	hung bool
}

func replay(t *testing.T, ops []op) verdict {
	var v verdict
	if err := runBubble(t, func(*testing.T) { v.at, v.said = play(ops) }); err != "" {
		return verdict{at: len(ops) - 1, said: err, hung: true}
	}
	return v
}

// shrink drops operations one at a time while the schedule still fails.
func shrink(t *testing.T, ops []op, v verdict) ([]op, verdict) {
	ops = ops[:v.at+1]
	for again := true; again; {
		again = false
		for i := range ops {
			try := slices.Delete(slices.Clone(ops), i, i+1)
			if w := replay(t, try); w.at >= 0 && !w.hung {
				ops, v, again = try[:w.at+1], w, true
				break
			}
		}
	}
	return ops, v
}

func TestRandomSchedulesAgainstAModel(t *testing.T) {
	if isolated(t) {
		return
	}
	var seeds []uint64
	for s := range uint64(150) {
		seeds = append(seeds, s+1)
	}
	if s, ok := testseed.Replay(t); ok {
		seeds = []uint64{s}
		t.Logf("seed %d's schedule:\n%s", s, listing(schedule(s)))
	}
	for _, seed := range seeds {
		ops := schedule(seed)
		v := replay(t, ops)
		if v.at < 0 {
			continue
		}
		if !v.hung {
			ops, v = shrink(t, ops, v)
		}
		t.Fatalf("seed %d (replay: PEAKLOAD_SEED=%d go test -run TestRandomSchedulesAgainstAModel ./steps/05-burst-cache/), "+
			"TTL %v, the shortest failing schedule:\n%s\nat step %d, %s: %s",
			seed, seed, modelTTL, listing(ops), v.at+1, ops[v.at], v.said)
	}
}

func listing(ops []op) string {
	var b strings.Builder
	for i, o := range ops {
		fmt.Fprintf(&b, "  %2d. %s\n", i+1, o)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
