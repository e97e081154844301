package writes

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// Everything added is written once, in writes of at most max documents,
// even when the first writes fail; Close waits for it; then AddWait refuses.
func TestGroupWritesEverythingOnce(t *testing.T) {
	var mu sync.Mutex
	seen := map[int]int{}
	var fails atomic.Int64
	fails.Store(2)
	largest := 0
	g := NewGroup(50, 100, func(_ context.Context, docs []bson.D) ([]bson.D, error) {
		if fails.Add(-1) >= 0 {
			return docs, errors.New("connection refused")
		}
		mu.Lock()
		defer mu.Unlock()
		largest = max(largest, len(docs))
		for _, d := range docs {
			seen[d[0].Value.(int)]++
		}
		return nil, nil
	})
	var wg sync.WaitGroup
	for w := range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				if err := g.AddWait(t.Context(), bson.D{{Key: "n", Value: w*100 + i}}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	if err := g.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	for n := range 1000 {
		if seen[n] != 1 {
			t.Fatalf("document %d written %d times, want once", n, seen[n])
		}
	}
	if largest > 50 {
		t.Fatalf("a write of %d documents, want at most 50", largest)
	}
	if err := g.AddWait(t.Context(), bson.D{{Key: "n", Value: -1}}); !errors.Is(err, ErrClosed) {
		t.Fatalf("AddWait after Close: %v, want ErrClosed", err)
	}
}

// WaitForRoom waits while the buffer is full and takes the document as soon
// as there is room; past max it gives up with ErrFull, and other errors
// pass through at once.
func TestWaitForRoom(t *testing.T) {
	room := make(chan struct{}, 1)
	add := func(bson.D) error {
		select {
		case <-room:
			return nil
		default:
			return ErrFull
		}
	}
	go func() { time.Sleep(30 * time.Millisecond); room <- struct{}{} }()
	start := time.Now()
	if err := WaitForRoom(add, time.Second)(t.Context(), bson.D{}); err != nil {
		t.Fatalf("room after 30 ms, max 1 s: %v, want nil", err)
	}
	if took := time.Since(start); took < 30*time.Millisecond || took > 500*time.Millisecond {
		t.Fatalf("took %s, want about 30 ms: try again a few ms apart while full", took)
	}
	start = time.Now()
	if err := WaitForRoom(add, 50*time.Millisecond)(t.Context(), bson.D{}); !errors.Is(err, ErrFull) {
		t.Fatalf("never any room: %v, want ErrFull", err)
	}
	if took := time.Since(start); took < 50*time.Millisecond || took > time.Second {
		t.Fatalf("gave up after %s, want about max (50 ms)", took)
	}
	closed := func(bson.D) error { return ErrClosed }
	if err := WaitForRoom(closed, time.Second)(t.Context(), bson.D{}); !errors.Is(err, ErrClosed) {
		t.Fatalf("closing: %v, want ErrClosed at once", err)
	}
}
