package stack

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// STACK=given (the Compose bench container): each service at the address
// the environment names, and Up waits for them but starts nothing.
func TestGivenStartsNothing(t *testing.T) {
	env := map[string]string{
		"STACK":                 Given,
		"PEAKLOAD_DIR":          t.TempDir(),
		"PEAKLOAD_POSTGRES_URL": "postgres://postgres@postgres:5432/workshop?sslmode=disable",
		"PEAKLOAD_REDIS_ADDR":   "127.0.0.1:1", // nothing listens on port 1
		"PEAKLOAD_MONGO_URL":    "mongodb://mongo:27017/",
	}
	c, err := Parse(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	e := c.Endpoints()
	if e.PostgresURL != "postgres://postgres@postgres:5432/workshop?sslmode=disable" || e.RedisAddr != "127.0.0.1:1" || e.MongoURL != "mongodb://mongo:27017/" {
		t.Errorf("given endpoints %+v, want the environment's, service by service", e)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	started, err := Up(ctx, c, Redis)
	if err == nil || len(started) != 0 {
		t.Errorf("Up on a given Redis that does not answer: started %v, err %v; want nothing started and an error", started, err)
	}
	if _, err := os.Stat(filepath.Join(c.Dir, "stack.json")); err == nil {
		t.Error("Up recorded a given service as started: Down would try to stop it")
	}
}
