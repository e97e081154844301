package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

type result struct {
	b   []byte
	err error
}

// A load of one id takes as long as Redis takes; meanwhile the other ids
// are served: a hit at once, a miss with its own load. Outside a bubble
// (a Get blocked on a sync.Mutex would freeze synctest's clock), so "held
// up" is observed, not timed: the other Get has not returned while every
// goroutine waits — the load of id 1 for the test, that Get for something
// only the load's end can give.
func TestASlowLoadDoesNotHoldUpOtherIds(t *testing.T) {
	if isolated(t) {
		return
	}
	memory, tr := New(time.Minute), newTier()
	ctx := t.Context()
	if b, err := get(ctx, memory, 2, tr.get); err != nil || string(b) != item(2, 1) {
		t.Fatalf("Get(2) = %q, %v; want %q", b, err, item(2, 1))
	}
	tr.started = make(chan int32, 1)
	release := tr.hold(1)
	defer release()
	slow := make(chan result, 1)
	go func() { b, err := get(ctx, memory, 1, tr.get); slow <- result{b, err} }()
	if _, ok := await(t, tr.started, "Get(1), a miss, to call next"); !ok {
		t.Fatal("Get(1), a miss, had not called next, and every goroutine was waiting: a miss must load through next")
	}
	for _, c := range []struct {
		id   int32
		what string
	}{{2, "a hit, id 2 cached before"}, {3, "a miss"}} {
		done := make(chan result, 1)
		go func() { b, err := get(ctx, memory, c.id, tr.get); done <- result{b, err} }()
		r, ok := await(t, done, fmt.Sprintf("Get(%d) to return while id 1's load is held", c.id))
		if !ok {
			t.Fatalf("while the load of id 1 was in flight, Get(%d) (%s) waited for it: every goroutine was waiting, none could go on "+
				"until the test let id 1's load end; want it served meanwhile — one id's load holds up the others: "+
				"a lock held while next runs serialises every miss of the process", c.id, c.what)
		}
		if r.err != nil || string(r.b) != item(c.id, 1) {
			t.Fatalf("while the load of id 1 was in flight, Get(%d) = %q, %v; want %q", c.id, r.b, r.err, item(c.id, 1))
		}
	}
	release()
	r, ok := await(t, slow, "Get(1) to return once its load was let go")
	if !ok {
		t.Fatal("Get(1) had not returned after its load was let go, and every goroutine was waiting")
	}
	if r.err != nil || string(r.b) != item(1, 1) {
		t.Fatalf("the slow Get(1) = %q, %v; want %q", r.b, r.err, item(1, 1))
	}
}

// 100 callers miss id 1 together (a burst on a cold item): one call to
// the next tier, whose item (or error) every caller gets. The error is not
// kept: the next read loads again.
func TestConcurrentMissesOfOneIdShareOneLoad(t *testing.T) {
	if isolated(t) {
		return
	}
	inBubble(t, func(t *testing.T) {
		memory, tr := New(time.Minute), newTier()
		ctx := context.Background()
		const callers = 100
		for _, fail := range []bool{false, true} {
			id, what := int32(1), "item"
			if fail {
				id, what = 2, "error"
				tr.setFailing(id, true)
			}
			release, before := tr.hold(id), lookups()
			results := make(chan result, callers)
			for range callers {
				go func() { b, err := get(ctx, memory, id, tr.get); results <- result{b, err} }()
			}
			synctest.Wait() // every caller is in Get, waiting for the held load
			if n := tr.count(id); n != 1 {
				t.Fatalf("%d concurrent misses of id %d called next %d times while the first load was in flight, want 1: "+
					"concurrent misses of an id share one load (c.items.Get with a loader does it)", callers, id, n)
			}
			release()
			for range callers {
				r := <-results
				var le *loadError
				if ok := errors.As(r.err, &le); (fail && !ok) || (!fail && (r.err != nil || string(r.b) != item(id, 1))) {
					t.Fatalf("a caller of the shared load of id %d got %q, %v; want the load's %s", id, r.b, r.err, what)
				}
			}
			if n := tr.count(id); n != 1 {
				t.Fatalf("%d concurrent misses of id %d called next %d times, want 1", callers, id, n)
			}
			if c := lookups().since(before); c.hits+c.misses != callers || c.misses < 1 {
				t.Fatalf("%d concurrent Gets of a cold id counted %v hits and %v misses, want %d lookups in all, at least one a miss",
					callers, c.hits, c.misses, callers)
			}
		}
		tr.setFailing(2, false)
		if b, err := get(ctx, memory, 2, tr.get); err != nil || string(b) != item(2, 2) || tr.count(2) != 2 {
			t.Fatalf("after the shared load of id 2 failed, the next read returned %q, %v with %d loads in all; want %q from a second load: "+
				"an error must not be kept", b, err, tr.count(2), item(2, 2))
		}
	})
}

// The bench's hit ratio is read from the counts, so they must be exact
// with every CPU at work: a read of a cached id is one hit, a read that
// loads is one miss — also when hits and loads overlap.
func TestHitAndMissCountsAreExactUnderConcurrency(t *testing.T) {
	if isolated(t) {
		return
	}
	inBubble(t, func(t *testing.T) {
		memory, tr := New(time.Minute), newTier()
		ctx := context.Background()
		wrong := make(chan string, 1)
		read := func(id int32, want string) {
			if b, err := get(ctx, memory, id, tr.get); err != nil || string(b) != want {
				select {
				case wrong <- fmt.Sprintf("Get(%d) = %q, %v; want %q", id, b, err, want):
				default:
				}
			}
		}
		const warm, cold, readers, reads = 50, 20, 20, 50
		before := lookups()
		for id := range int32(warm) {
			read(id+1, item(id+1, 1))
		}
		// Each cold id is loaded by one goroutine, held while the hits run.
		var loading, reading sync.WaitGroup
		var releases []func()
		for i := range int32(cold) {
			id := 1001 + i
			releases = append(releases, tr.hold(id))
			loading.Go(func() { read(id, item(id, 1)) })
		}
		synctest.Wait()
		for r := range readers {
			reading.Go(func() {
				for k := range reads {
					id := int32((r*7+k)%warm + 1)
					read(id, item(id, 1))
				}
			})
		}
		reading.Wait()
		for _, release := range releases {
			release()
		}
		loading.Wait()
		c := lookups().since(before)
		want := counts{readers * reads, warm + cold}
		if c != want || tr.total() != warm+cold {
			t.Fatalf("%d reads of cached ids from %d goroutines, while %d other ids loaded one each, counted %v hits and %v misses "+
				"with %d calls to next; want %v hits and %v misses (%d first reads that loaded), %d calls",
				readers*reads, readers, cold, c.hits, c.misses, tr.total(), want.hits, want.misses, warm+cold, warm+cold)
		}
		select {
		case w := <-wrong:
			t.Fatal(w)
		default:
		}

		// Free for all: each goroutine reads cached ids and an id of its own.
		const goroutines, each = 8, 400
		before = lookups()
		var all sync.WaitGroup
		for g := range goroutines {
			all.Go(func() {
				r := rand.New(rand.NewPCG(uint64(g), 5))
				own := int32(2001 + g)
				for range each {
					if id := int32(1 + r.IntN(warm)); r.IntN(2) == 0 {
						read(id, item(id, 1))
					} else {
						read(own, item(own, 1))
					}
				}
			})
		}
		all.Wait()
		c = lookups().since(before)
		if want := (counts{goroutines*each - goroutines, goroutines}); c != want {
			t.Fatalf("%d goroutines reading at once, %d Gets each (cached ids, and an id of its own read first here), counted %v hits and %v misses; want %v and %v",
				goroutines, each, c.hits, c.misses, want.hits, want.misses)
		}
		select {
		case w := <-wrong:
			t.Fatal(w)
		default:
		}
	})
}
