package main

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// stalledTier is the tier below stuck on a Redis that does not answer: a
// call waits until its context ends (as a client that honours the context
// does) or the test lets it go. It keeps what each call's context said.
type stalledTier struct {
	release  chan struct{}
	mu       sync.Mutex
	calls    int
	deadline []time.Time // each call's ctx deadline, zero when it had none
}

func (s *stalledTier) get(ctx context.Context, id int32) ([]byte, error) {
	d, _ := ctx.Deadline()
	s.mu.Lock()
	s.calls++
	s.deadline = append(s.deadline, d)
	s.mu.Unlock()
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-s.release:
		return []byte(item(id, 1)), nil // Redis answered, late
	}
}

// ending is one way a request's budget runs out while it reads a cold id.
type ending struct {
	what  string // "cancelled while next waits", for the message
	ctx   func(t *testing.T) (context.Context, context.CancelFunc)
	after func(cancel context.CancelFunc) // what happens once Get is waiting
}

var endings = []ending{
	{"cancelled (its client hung up) while next waits on Redis",
		func(t *testing.T) (context.Context, context.CancelFunc) { return context.WithCancel(t.Context()) },
		func(cancel context.CancelFunc) { cancel() }},
	{"past its deadline (1 s, fake time) while next waits on Redis",
		func(t *testing.T) (context.Context, context.CancelFunc) {
			return context.WithTimeout(t.Context(), time.Second)
		},
		func(context.CancelFunc) { time.Sleep(2 * time.Second) }},
	{"already past its deadline when it reads",
		func(t *testing.T) (context.Context, context.CancelFunc) {
			return context.WithDeadline(t.Context(), time.Now().Add(-time.Second))
		},
		func(context.CancelFunc) {}},
}

// The request's context reaches the tier below whole: its deadline and its
// cancellation, not only its values. A request whose budget has run out
// does not wait on a Redis that does not answer: Get returns the
// context's error. Fake time (testing/synctest): "still waiting" is seen
// when every goroutine is blocked, never guessed from a clock.
func TestAnEndedRequestDoesNotWaitOnTheTierBelow(t *testing.T) {
	for i, e := range endings {
		inBubble(t, func(t *testing.T) {
			memory, s := New(time.Minute), &stalledTier{release: make(chan struct{})}
			ctx, cancel := e.ctx(t)
			defer cancel()
			want, _ := ctx.Deadline()
			id := int32(40 + i)
			done := make(chan result, 1)
			go func() {
				b, err := get(ctx, memory, id, s.get)
				done <- result{b, err}
			}()
			synctest.Wait() // Get is waiting on next, or has returned
			e.after(cancel)
			synctest.Wait()
			var r result
			select {
			case r = <-done:
			default:
				close(s.release) // let next answer, so the bubble ends
				<-done
				t.Fatalf("a request %s: Get was still waiting for next after the request had ended — next's context lacks the request's "+
					"cancellation or deadline. Pass ctx itself on (not context.Background, nor context.WithoutCancel(ctx)): "+
					"a request whose budget has run out must not wait on Redis", e.what)
			}
			if !errors.Is(r.err, ctx.Err()) {
				t.Fatalf("a request %s: Get returned %.40q, %v; want the request's context error (%v), as next returned it", e.what, r.b, r.err, ctx.Err())
			}
			s.mu.Lock()
			defer s.mu.Unlock()
			for _, d := range s.deadline {
				if !want.IsZero() && (d.IsZero() || d.After(want)) {
					t.Fatalf("a request %s: next's context had deadline %v, the request's is %v: pass the request's ctx on, its deadline with it", e.what, d, want)
				}
			}
		})
	}
}
