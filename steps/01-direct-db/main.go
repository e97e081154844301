// Step 1 — direct DB. GET /items/:id reads PostgreSQL on every request: one
// request, one query, however many viewers ask for the same hot stream.
// Article A1 measured 645 req/s here: by the author's rule of thumb (10 CCU make
// 1 req/s), enough for only 6k CCU.
package main

import (
	"context"
	"log"

	"github.com/peakload/workshop/internal/given/catalog"
	"github.com/peakload/workshop/internal/given/server"
	"github.com/peakload/workshop/internal/given/serverenv"
)

func main() {
	cfg := serverenv.Must() // where the parent (or `make up`) put the databases; PEAKLOAD_PG_POOL
	store, err := catalog.OpenPool(context.Background(), cfg.DB.PostgresURL, cfg.PGPool)
	if err != nil {
		log.Fatal(err)
	}
	srv := newServer(store)
	srv.OnShutdown(func(context.Context) error { store.Close(); return nil })
	srv.Main()
}

// newServer adds the step's route to the shared server (the ceilings,
// /metrics and /debug/pprof come with it).
func newServer(store *catalog.Store) *server.Server {
	srv := server.New("step 1 — direct-db")
	srv.GET(server.ItemRoute, server.DirectRead(store))
	return srv
}
