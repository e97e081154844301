// Step 10 — scale out. The step-5 server (memory for the burst TTL, then
// Redis, then PostgreSQL) runs as N replicas behind HAProxy: `make step-10
// bench` starts them. Each replica warms its own memory (round-robin
// dilutes the burst tier N times) and keeps its own copy of an item after
// another replica changed it (the invalidation delay: up to the burst TTL).
// Your part is Change and Listen in exercise.go: announce a change on Redis
// pub/sub, and forget what the others announce.
package main

import (
	"context"
	"log"
	"net/http"
	"os"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/redis/go-redis/v9"

	"github.com/peakload/workshop/internal/given/catalog"
	"github.com/peakload/workshop/internal/given/conditional"
	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/given/replica"
	"github.com/peakload/workshop/internal/given/routes"
	"github.com/peakload/workshop/internal/given/server"
	"github.com/peakload/workshop/internal/given/serverenv"
	"github.com/peakload/workshop/solutions/03-etag"
	coalesce "github.com/peakload/workshop/solutions/04-singleflight"
	burst "github.com/peakload/workshop/solutions/05-burst-cache"
)

// ItemRoute serves an item with its ETag (step 3): the bench tells an old
// copy from a new one by it. ChangeRoute changes an item's live stats.
const (
	ItemRoute   = routes.Burst
	ChangeRoute = routes.Change
)

func main() {
	cfg := serverenv.Must()
	server.MainRead(func(store *catalog.Store, rdb *redis.Client) *server.Server { return newServer(store, rdb, cfg) })
}

// newServer builds one replica. PEAKLOAD_REPLICA names it (the X-Replica
// header says which one answered); the bench's "before" rows run with
// PEAKLOAD_INVALIDATION=off (no announcement, no listening), and
// PEAKLOAD_LISTEN=off makes a replica that misses every announcement.
func newServer(store *catalog.Store, rdb *redis.Client, cfg serverenv.Config) *server.Server {
	p := params.Load()
	name := cfg.Replica
	if name == "" {
		name, _ = os.Hostname() // under Compose: the container's
	}
	r := newReplica(name, store, rdb, p.ForHitRatio(p.Clock.RedisTTLS), p.ForHitRatio(p.Clock.BurstTTLS))
	change, listen := Change, Listen
	if !cfg.Invalidation {
		change = func(ctx context.Context, r *replica.Replica, id int32) error { return r.Write(ctx, id) }
	}
	srv := server.New("step 10 — scale-out " + name)
	if cfg.Invalidation && cfg.Listen {
		ctx, stop := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			if err := listen(ctx, r); err != nil {
				log.Printf("listening for changes: %v (this replica now serves changed items up to the burst TTL late)", err)
			}
		}()
		srv.OnShutdown(func(context.Context) error { stop(); <-done; return nil })
	}

	srv.GET(ItemRoute, named(name, conditional.Serve(r.Get, etag.NotModified)))
	srv.POST(ChangeRoute, named(name, func(c echo.Context) error {
		id, err := catalog.ParseID(c.Param("id"))
		if err != nil {
			return echo.NewHTTPError(http.StatusBadRequest, err.Error())
		}
		if err := change(c.Request().Context(), r, id); err != nil {
			return server.ReadError(err) // 404 for an unknown item
		}
		return c.JSON(http.StatusOK, map[string]any{"id": id, "changed": true, "replica": name})
	}))
	return srv
}

// newReplica stacks steps 4 and 5's answers on step 2's read path (step
// 10 is cumulative): memory for burstTTL, then Redis for redisTTL, one
// load per missed key at a time.
func newReplica(name string, store *catalog.Store, rdb *redis.Client, redisTTL, burstTTL time.Duration) *replica.Replica {
	var flight coalesce.Group
	return replica.New(name, store, rdb, redisTTL, burst.New(burstTTL), flight.Load)
}

// named adds X-Replica to every response: curl through the load balancer
// shows who answered.
func named(name string, h echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		c.Response().Header().Set("X-Replica", name)
		return h(c)
	}
}
