// Step 5 — burst cache. With step 4 every request still costs a Redis round
// trip: ~1.4 KB in and out, and CPU in the client. A few seconds of cache in
// the process (article A's example keeps 5 s; ours is 3 s on the
// full-scale clock, 300 ms here) serves a burst from
// memory. Article A5: only ~10 % better performance (read as req/s: its
// figures are only in images), but API↔Redis bandwidth ÷ 5–6.
// Your part is Cache.Get in exercise.go.
package main

import (
	"context"

	"github.com/redis/go-redis/v9"

	"github.com/peakload/workshop/internal/given/catalog"
	"github.com/peakload/workshop/internal/given/conditional"
	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/given/readpath"
	"github.com/peakload/workshop/internal/given/routes"
	"github.com/peakload/workshop/internal/given/server"
	cacheaside "github.com/peakload/workshop/solutions/02-cache-aside"
	"github.com/peakload/workshop/solutions/03-etag"
	coalesce "github.com/peakload/workshop/solutions/04-singleflight"
)

// BurstRoute is memory → Redis → PostgreSQL; /coalesced/items/:id (step 4)
// stays as it was, so one bench compares both.
const BurstRoute = routes.Burst

// MaxItems bounds the memory the burst tier may spend: ~1.5 KB per item,
// ~15 MB per instance, whatever the traffic (catalog.MemoryItems, the
// bound the reference and step 10's replicas use too).
const MaxItems = catalog.MemoryItems

func main() { server.MainRead(newServer) }

func newServer(store *catalog.Store, rdb *redis.Client) *server.Server {
	p := params.Load()
	ttl := p.ForHitRatio(p.Clock.RedisTTLS) // the clock of hit ratios: 3 s
	// Cache-aside runs step 2's answer (GetOrSet), as solved.
	cached := readpath.Items(store, rdb, ttl, cacheaside.GetOrSet)
	var group coalesce.Group
	coalesced := readpath.Via(store, rdb, ttl, group.Load)
	memory := New(p.ForHitRatio(p.Clock.BurstTTLS)) // ours: 3 s on the full-scale clock (A's example: 5 s), 300 ms here

	srv := server.New("step 5 — burst-cache")
	srv.GET(server.ItemRoute, server.DirectRead(store))
	srv.GET(routes.Cached, server.Serve(cached))
	srv.GET(routes.ETag, conditional.Serve(cached, etag.NotModified))
	srv.GET(routes.Coalesced, server.Serve(coalesced))
	srv.GET(BurstRoute, server.Serve(func(ctx context.Context, id int32) ([]byte, error) {
		return memory.Get(ctx, id, coalesced)
	}))
	return srv
}
