package server

import (
	"context"
	"log"

	"github.com/redis/go-redis/v9"

	"github.com/peakload/workshop/internal/given/catalog"
	"github.com/peakload/workshop/internal/given/redisconn"
	"github.com/peakload/workshop/internal/given/serverenv"
)

// MainRead is the main of the read-path steps (2–5, 10): connect to the
// catalogue and to Redis (counted), let the step build its routes, serve
// until SIGTERM, then close both.
func MainRead(build func(store *catalog.Store, rdb *redis.Client) *Server) {
	cfg := serverenv.Must()
	store, err := catalog.OpenPool(context.Background(), cfg.DB.PostgresURL, cfg.PGPool)
	if err != nil {
		log.Fatal(err)
	}
	rdb := redisconn.New(cfg.DB.RedisAddr)
	srv := build(store, rdb)
	srv.OnShutdown(func(context.Context) error { store.Close(); return rdb.Close() })
	srv.Main()
}
