package writes

import (
	"context"
	"fmt"
	"sync"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/metrics"
)

// Group is insert_group's buffer: requests add to it and are answered at
// once; one writer takes whatever has accumulated (up to max documents)
// and writes it with write — GroupWrite: one InsertOne per document, 100
// at a time concurrently, as the article did. It is not the exercise's
// batcher: it has no size or time to wait for, it writes as soon as the
// previous write is done.
type Group struct {
	max   int
	write WriteFunc
	queue chan bson.D // bounded: a slow database makes AddWait wait
	done  chan struct{}
	mu    sync.RWMutex // AddWait holds it shared; Close exclusive, to close queue safely
	shut  bool
}

// NewGroup starts the writer: at most capacity documents wait in memory,
// at most max go into one write.
func NewGroup(max, capacity int, write WriteFunc) *Group {
	g := &Group{max: max, write: write, queue: make(chan bson.D, capacity), done: make(chan struct{})}
	go g.run()
	return g
}

// AddWait buffers doc, waiting for room while the buffer is full; it gives
// up with ErrFull when ctx ends (the client went away).
func (g *Group) AddWait(ctx context.Context, doc bson.D) error {
	g.mu.RLock()
	defer g.mu.RUnlock()
	if g.shut {
		return ErrClosed
	}
	select {
	case g.queue <- doc:
		return nil
	case <-ctx.Done():
		return ErrFull
	}
}

// Close stops accepting and waits until everything buffered is written,
// until ctx ends (the shutdown deadline).
func (g *Group) Close(ctx context.Context) error {
	g.mu.Lock()
	if !g.shut {
		g.shut = true
		close(g.queue)
	}
	g.mu.Unlock()
	select {
	case <-g.done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("group: shutdown deadline: %d events accepted but not persisted", len(g.queue))
	}
}

func (g *Group) run() {
	defer close(g.done)
	for doc := range g.queue { // wait for a first document, then take what else is there
		docs := []bson.D{doc}
	more:
		for len(docs) < g.max {
			select {
			case d, ok := <-g.queue:
				if !ok {
					break more
				}
				docs = append(docs, d)
			default:
				break more
			}
		}
		metrics.BatchSize.Observe(float64(len(docs)))
		Persist(g.write, docs)
	}
}
