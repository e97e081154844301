package writes

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"

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
