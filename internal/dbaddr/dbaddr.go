// Package dbaddr says where the databases listen. It is all a step server
// needs to know about the stack: starting and stopping the databases
// (pg_ctl, redis-server, compose) is internal/stack's business, and no
// server links that code.
package dbaddr

import (
	"fmt"
	"os"
	"strconv"
)

// The workshop's ports: not the databases' own defaults, so a learner's
// servers never clash with them, and below Linux's ephemeral range
// (32768–60999), where a listener on a fixed port can find it taken by some
// process's outgoing connection (EADDRINUSE flakes). Not registered ports of
// well-known services either.
const (
	DefaultHost      = "127.0.0.1"
	DefaultPGPort    = 15432
	DefaultRedisPort = 16379
	DefaultMongoPort = 17017
)

// Endpoints are the addresses a step server connects to.
type Endpoints struct {
	PostgresURL string `json:"postgres_url"`
	RedisAddr   string `json:"redis_addr"`
	MongoURL    string `json:"mongo_url"`
}

// For returns the endpoints of the services on host at these ports.
func For(host string, pgPort, redisPort, mongoPort int) Endpoints {
	return Endpoints{
		PostgresURL: fmt.Sprintf("postgres://postgres@%s:%d/workshop?sslmode=disable", host, pgPort),
		RedisAddr:   fmt.Sprintf("%s:%d", host, redisPort),
		MongoURL:    fmt.Sprintf("mongodb://%s:%d/", host, mongoPort),
	}
}

// Env returns the endpoints as environment variables for a child process:
// what FromEnv reads.
func (e Endpoints) Env() []string {
	return []string{"PEAKLOAD_POSTGRES_URL=" + e.PostgresURL, "PEAKLOAD_REDIS_ADDR=" + e.RedisAddr, "PEAKLOAD_MONGO_URL=" + e.MongoURL}
}

// FromEnv is what a step server uses: the variables Env sets, else the
// stack's host and ports (PEAKLOAD_DB_HOST, PEAKLOAD_PG_PORT,
// PEAKLOAD_REDIS_PORT, PEAKLOAD_MONGO_PORT, as `make up` uses them), else
// the defaults: `go run ./steps/01-direct-db` finds the stack on its own.
func FromEnv() Endpoints {
	d := For(envOr("PEAKLOAD_DB_HOST", DefaultHost), envPort("PEAKLOAD_PG_PORT", DefaultPGPort),
		envPort("PEAKLOAD_REDIS_PORT", DefaultRedisPort), envPort("PEAKLOAD_MONGO_PORT", DefaultMongoPort))
	return Endpoints{
		PostgresURL: envOr("PEAKLOAD_POSTGRES_URL", d.PostgresURL),
		RedisAddr:   envOr("PEAKLOAD_REDIS_ADDR", d.RedisAddr),
		MongoURL:    envOr("PEAKLOAD_MONGO_URL", d.MongoURL),
	}
}

// envOr is the variable key, or def when it is unset or empty.
func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

// envPort is the variable key as a positive integer, or def.
func envPort(key string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(key)); err == nil && v > 0 {
		return v
	}
	return def
}
