package writes

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/given/metrics"
)

// Group is insert_group's buffer: requests add to it and are answered at
// once; one writer takes whatever has accumulated (up to max documents)
// and writes it with write — GroupWrite: one InsertOne per document, 100
// at a time concurrently, as the article did. It is not the exercise's
// batcher: it has no size or time to wait for, it writes as soon as the
// previous write is done.
type Group struct {
	*Buffer // AddWait and Close; its queue is bounded, so a slow database makes AddWait wait
	max     int
	write   WriteFunc
}

// NewGroup starts the writer: at most capacity documents wait in memory,
// at most max go into one write.
func NewGroup(max, capacity int, write WriteFunc) *Group {
	g := &Group{Buffer: NewBuffer("group", capacity), max: max, write: write}
	go g.run()
	return g
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
