// Step 6 — buffered writes. An event-tracking endpoint stores every event
// in MongoDB. Article B measured three ways: insert then answer (sync),
// answer then insert (async), buffer and insert 100 at a time (group); the
// author's repository adds a fourth, a batcher that writes one InsertMany
// per 1000 events or per second (bulk.js). Each is a route here, beside
// the ceilings, so one bench compares them. Your part is Batcher.run in exercise.go.
package main

import (
	"context"
	"errors"
	"log"
	"net/http"

	"github.com/peakload/workshop/internal/given/events"
	"github.com/peakload/workshop/internal/given/routes"
	"github.com/peakload/workshop/internal/given/server"
	"github.com/peakload/workshop/internal/given/serverenv"
	"github.com/peakload/workshop/internal/given/writes"
)

// The batching parameters of the author's bulk.js.
const (
	BatchSize     = 1000
	FlushInterval = writes.FlushInterval
	// Capacity bounds the queue; with the one batch run has taken out and is
	// writing, at most Capacity + BatchSize events are accepted but not yet
	// written: memory (a few MB), what a crash could lose, and how long the
	// work goes on after the load (that ÷ the database's rate). Past it:
	// 503 + Retry-After.
	Capacity = 5_000
	Backlog  = 2_000 // the same bound for async's in-flight inserts and group's buffer
)

func main() {
	store, err := events.Open(context.Background(), serverenv.Must().DB.MongoURL) // where the parent (or `make up`) put MongoDB
	if err != nil {
		log.Fatal(err)
	}
	srv, flush := newServer(store)
	srv.OnShutdown(flush) // after the last request: nothing accepted stays in memory
	srv.OnShutdown(store.Close)
	srv.Main()
}

func newServer(store *events.Store) (*server.Server, func(context.Context) error) {
	// A poison message — an event the database refuses for good — must not
	// be retried like a network error: DeadLetter sets it aside (the
	// dead_letters collection, counted) and lets the rest of the batch go.
	deadLetter := func(w writes.WriteFunc) writes.WriteFunc { return writes.DeadLetter(w, store.DeadLetters) }
	async := writes.NewAsync(deadLetter(writes.One(store.InsertOne)), Backlog)
	group := writes.NewGroup(BatchSize, Backlog, deadLetter(writes.GroupWrite(store)))
	batcher := New(BatchSize, Capacity, FlushInterval, deadLetter(store.InsertMany))

	// The edge checks each event against the rules of the database in use
	// (store.Rules): what it would refuse is a 400 now, not a poison later.
	srv := server.New("step 6 — buffered-writes")
	srv.POST(routes.EventsSync, writes.Accept(store.Rules, store.InsertOne, http.StatusCreated))
	srv.POST(routes.EventsAsync, writes.Accept(store.Rules, async.Add, http.StatusAccepted))
	srv.POST(routes.EventsGroup, writes.Accept(store.Rules, group.AddWait, http.StatusAccepted))
	// A full buffer first makes the request wait (up to one flush interval)
	// for the flusher to make room, and only then answers 503: a client
	// sent away sleeps a whole Retry-After second while the database idles.
	srv.POST(routes.EventsBulk, writes.Accept(store.Rules, writes.WaitForRoom(batcher.Add, FlushInterval), http.StatusAccepted))
	return srv, func(ctx context.Context) error {
		return errors.Join(async.Wait(ctx), group.Close(ctx), batcher.Close(ctx))
	}
}
