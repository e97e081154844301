// Step 3 — ETag. Clients short-poll their stream every 15 s; its data
// changes about once a minute. Three polls in four download an item they
// already have. With a weak ETag and If-None-Match, those three get
// "304 Not Modified" and no body: article A3 cut public bandwidth ÷ ~4.
// Your part is NotModified in exercise.go.
package main

import (
	"github.com/redis/go-redis/v9"

	"github.com/peakload/workshop/internal/given/catalog"
	"github.com/peakload/workshop/internal/given/conditional"
	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/given/readpath"
	"github.com/peakload/workshop/internal/given/routes"
	"github.com/peakload/workshop/internal/given/server"
	cacheaside "github.com/peakload/workshop/solutions/02-cache-aside"
)

// ETagRoute serves the cached item with revalidation; /cached/items/:id
// (step 2) stays as it was, so one bench compares both.
const ETagRoute = routes.ETag

func main() { server.MainRead(newServer) }

func newServer(store *catalog.Store, rdb *redis.Client) *server.Server {
	p := params.Load()
	// Cache-aside runs step 2's answer (GetOrSet), as solved.
	cached := readpath.Items(store, rdb, p.Scaled(p.Clock.RedisTTLS), cacheaside.GetOrSet)
	srv := server.New("step 3 — etag")
	srv.GET(server.ItemRoute, server.DirectRead(store))
	srv.GET(routes.Cached, server.Serve(cached))
	srv.GET(ETagRoute, conditional.Serve(cached, NotModified))
	return srv
}
