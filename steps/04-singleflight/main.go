// Step 4 — singleflight. A hot stream's key expires every 30 s (300 ms on
// the bench's clock); at that instant every viewer's request misses and
// each runs the same query. Article A4: keep the in-flight load per key, so
// that even 1000 requests missing the cache at once send 1 query to the DB. Your part is Group.Load in
// exercise.go.
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
	"github.com/peakload/workshop/solutions/03-etag"
)

// CoalescedRoute is cache-aside with the misses coalesced;
// /cached/items/:id (step 2) stays as it was, so one bench compares both.
const CoalescedRoute = routes.Coalesced

func main() { server.MainRead(newServer) }

func newServer(store *catalog.Store, rdb *redis.Client) *server.Server {
	p := params.Load()
	ttl := p.Scaled(p.Clock.RedisTTLS)
	// Cache-aside runs step 2's answer (GetOrSet), as solved.
	cached := readpath.Items(store, rdb, ttl, cacheaside.GetOrSet)
	var group Group // one per process: the article's global map of in-flight promises
	coalesced := readpath.Via(store, rdb, ttl, group.Load)

	srv := server.New("step 4 — singleflight")
	srv.GET(server.ItemRoute, server.DirectRead(store))
	srv.GET(routes.Cached, server.Serve(cached))
	srv.GET(routes.ETag, conditional.Serve(cached, etag.NotModified))
	srv.GET(CoalescedRoute, server.Serve(coalesced))
	return srv
}
