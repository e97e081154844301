package main

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// The TTL tests run under testing/synctest (inBubble): time.Sleep moves a
// fake clock at once, so "1 ms after the 3rd expiry" is exact and costs
// nothing.

const ttl = 100 * time.Millisecond

func ordinal(n int) string {
	switch n {
	case 1:
		return "1st"
	case 2:
		return "2nd"
	case 3:
		return "3rd"
	}
	return fmt.Sprintf("%dth", n)
}

// An entry lives ttl after it was written, and so does the next one,
// written when the first expired: every expiry costs exactly one load.
func TestAnEntryLivesTTLAfterItsWriteEveryTime(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		memory, tr := New(ttl), newTier()
		ctx := context.Background()
		read := func(load int, when string) {
			t.Helper()
			b, err := get(ctx, memory, 1, tr.get)
			if n := tr.count(1); n != load {
				t.Fatalf("%s, id 1 had %s to next in all, want %d: an entry lives ttl (%v) after it was written, then one read loads it again",
					when, calls(n), load, ttl)
			}
			if err != nil || string(b) != item(1, load) {
				t.Fatalf("%s, Get(1) = %q, %v; want %q", when, b, err, item(1, load))
			}
		}
		written := time.Now()
		read(1, "after the first read")
		for load := 1; load <= 5; load++ {
			for _, since := range []time.Duration{time.Millisecond, ttl / 2, ttl - time.Millisecond} {
				time.Sleep(time.Until(written.Add(since)))
				read(load, fmt.Sprintf("at a read %v after write %d", since, load))
			}
			time.Sleep(time.Until(written.Add(ttl + time.Millisecond)))
			written = time.Now()
			read(load+1, fmt.Sprintf("at the read 1ms after the %s expiry", ordinal(load)))
		}
		time.Sleep(time.Minute)
		read(7, "at a read after a quiet minute")
		time.Sleep(ttl - time.Millisecond)
		read(7, fmt.Sprintf("at a read %v after that", ttl-time.Millisecond))
	})
}

// An id read all the time still expires ttl after its write: a hit does
// not make the entry live longer, or a hot item would never change again.
func TestReadsDoNotExtendTheTTL(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		memory, tr := New(ttl), newTier()
		const every, span = 9 * time.Millisecond, time.Second // 9 ms never adds up to the 100 ms TTL: no read on an expiry
		want, start, last := 0, time.Now(), time.Time{}
		for time.Since(start) <= span {
			if want == 0 || time.Since(last) >= ttl {
				want, last = want+1, time.Now()
			}
			if b, err := get(context.Background(), memory, 4, tr.get); err != nil || string(b) != item(4, want) {
				t.Fatalf("at %v, Get(4) = %q, %v; want %q", time.Since(start), b, err, item(4, want))
			}
			time.Sleep(every)
		}
		if n := tr.count(4); n != want {
			t.Fatalf("an id read every %v for %v had %s to next, want %d (one per TTL of %v): "+
				"the TTL counts from when the entry was written (otter.ExpiryWriting), not from its last read", every, span, calls(n), want, ttl)
		}
	})
}

// Each entry has its own clock: id 2, written 60 ms after id 1, lives 60
// ms longer.
func TestEachIdExpiresOnItsOwnClock(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		memory, tr := New(ttl), newTier()
		start := time.Now()
		steps := []struct {
			at   time.Duration
			id   int32
			load int // the load whose item the read returns
			why  string
		}{
			{0, 1, 1, "first read"},
			{60 * time.Millisecond, 2, 1, "first read"},
			{110 * time.Millisecond, 1, 2, "written 110ms before"},
			{110 * time.Millisecond, 2, 1, "written 50ms before"},
			{170 * time.Millisecond, 2, 2, "written 110ms before"},
			{170 * time.Millisecond, 1, 2, "written 60ms before"},
		}
		for _, s := range steps {
			time.Sleep(s.at - time.Since(start))
			b, err := get(context.Background(), memory, s.id, tr.get)
			if n := tr.count(s.id); n != s.load {
				t.Fatalf("at %v, after a read of id %d (%s; TTL %v), id %d had %s to next in all, want %d: each entry expires ttl after its own write",
					s.at, s.id, s.why, ttl, s.id, calls(n), s.load)
			}
			if err != nil || string(b) != item(s.id, s.load) {
				t.Fatalf("at %v, Get(%d) = %q, %v; want %q", s.at, s.id, b, err, item(s.id, s.load))
			}
		}
	})
}
