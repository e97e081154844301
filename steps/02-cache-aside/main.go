// Step 2 — cache-aside. The same item read, with Redis in front of the
// database: the first viewer of a stream pays for the query, the next ones
// in the following 30 s (3 s on the bench's clock of hit ratios) get Redis's copy.
// Article A2: "quite good" (khá tốt) against the direct read. Your part is
// GetOrSet in exercise.go.
package main

import (
	"github.com/redis/go-redis/v9"

	"github.com/peakload/workshop/internal/given/catalog"
	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/given/readpath"
	"github.com/peakload/workshop/internal/given/routes"
	"github.com/peakload/workshop/internal/given/server"
)

// CachedRoute serves the item through the cache; /items/:id stays the
// direct read, so one bench compares both.
const CachedRoute = routes.Cached

func main() { server.MainRead(newServer) }

func newServer(store *catalog.Store, rdb *redis.Client) *server.Server {
	p := params.Load()
	ttl := p.ForHitRatio(p.Clock.RedisTTLS) // the article's 30 s, on the clock of hit ratios (3 s)
	srv := server.New("step 2 — cache-aside")
	srv.GET(server.ItemRoute, server.DirectRead(store))
	// Each read through your GetOrSet is counted as a Redis hit when it did
	// not call load: the bench prints the hit ratio from those counters.
	srv.GET(CachedRoute, server.Serve(readpath.Items(store, rdb, ttl, GetOrSet)))
	return srv
}
