package server

import (
	"context"
	"log"

	"github.com/redis/go-redis/v9"

	"github.com/peakload/workshop/internal/given/catalog"
	"github.com/peakload/workshop/internal/given/dbaddr"
	"github.com/peakload/workshop/internal/given/redisconn"
)

// MainRead is the main of the read-path steps (2–5): connect to the
// catalogue and to Redis (counted), let the step build its routes, serve
// until SIGTERM, then close both.
func MainRead(build func(store *catalog.Store, rdb *redis.Client) *Server) {
	ep, err := dbaddr.FromEnv()
	if err != nil {
		log.Fatal(err)
	}
	store, err := catalog.Open(context.Background(), ep.PostgresURL)
	if err != nil {
		log.Fatal(err)
	}
	rdb := redisconn.New(ep.RedisAddr)
	srv := build(store, rdb)
	srv.OnShutdown(func(context.Context) error { store.Close(); return rdb.Close() })
	srv.Main()
}
