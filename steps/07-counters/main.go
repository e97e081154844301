// Step 7 — write-behind counters. Views, likes, clicks: POST
// /counters/<variant>/:id adds one to a counter in MongoDB ($inc, upsert).
// sync and async write once per request; bulk batches the requests into
// one BulkWrite (fewer round trips, as many writes); reduce counts per id
// first and writes once per distinct id (claim B9: ours, on the method of
// the author's express-counter.js). Your part is Reduce
// in exercise.go.
package main

import (
	"context"
	"errors"
	"log"
	"net/http"

	"github.com/peakload/workshop/internal/given/counters"
	"github.com/peakload/workshop/internal/given/events"
	"github.com/peakload/workshop/internal/given/routes"
	"github.com/peakload/workshop/internal/given/server"
	"github.com/peakload/workshop/internal/given/serverenv"
	"github.com/peakload/workshop/internal/given/writes"
	bulk "github.com/peakload/workshop/solutions/06-buffered-writes" // step 6's answer (Run) drains the batchers
)

// Step 6's batching parameters, and its bound on what waits in memory.
const (
	BatchSize = 1000
	Capacity  = 2_000
)

func main() {
	store, err := events.Open(context.Background(), serverenv.Must().DB.MongoURL) // where the parent (or `make up`) put MongoDB
	if err != nil {
		log.Fatal(err)
	}
	srv, flush := newServer(store.Counters())
	srv.OnShutdown(flush)
	srv.OnShutdown(store.Close)
	srv.Main()
}

// newServer serves the four variants, each counting in its own collection
// (c's name + "_sync", "_async"…), so none starts from another's writes.
func newServer(c *events.Counters) (*server.Server, func(context.Context) error) {
	// A counter the database refuses to increment for good (its value is not
	// a number, say) is dead-lettered, not retried for ever (step 6's poison).
	variant := func(name string, write func(*events.Counters) writes.WriteFunc) writes.WriteFunc {
		v := c.Variant(name)
		return writes.DeadLetter(write(v), v.DeadLetters)
	}
	async := writes.NewAsync(variant("async", func(v *events.Counters) writes.WriteFunc { return writes.One(counters.IncDoc(v)) }), 2_000)
	perRequest := writes.Batch("bulk", BatchSize, Capacity, writes.FlushInterval, variant("bulk", counters.PerRequest), bulk.Run)
	// Idempotent numbers each batch, so that a flush retried after a lost
	// acknowledgement adds nothing twice (exactly-once; README).
	reduced := writes.Batch("reduce", BatchSize, Capacity, writes.FlushInterval, counters.Idempotent(variant("reduce", Reduce)), bulk.Run)

	srv := server.New("step 7 — counters")
	srv.POST(routes.CountersSync, counters.Accept(counters.IncDoc(c.Variant("sync")), http.StatusCreated))
	srv.POST(routes.CountersAsync, counters.Accept(async.Add, http.StatusAccepted))
	srv.POST(routes.CountersBulk, counters.Accept(perRequest.AddWait, http.StatusAccepted))
	srv.POST(routes.CountersReduce, counters.Accept(reduced.AddWait, http.StatusAccepted))
	return srv, func(ctx context.Context) error {
		return errors.Join(async.Wait(ctx), perRequest.Close(ctx), reduced.Close(ctx))
	}
}
