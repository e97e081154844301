package stack

import (
	"context"
	"time"
)

// Given is STACK=given: services someone else started and will stop — the
// Compose bench profile's containers, reached by their names on Docker's
// network (PEAKLOAD_POSTGRES_URL, PEAKLOAD_REDIS_ADDR, PEAKLOAD_MONGO_URL).
// The workshop waits until each answers and never starts or stops one: a
// container running `workshop bench` has neither the databases' binaries
// nor a Docker engine, and needs neither.
const Given = "given"

// upGiven waits for a service started by someone else. It never starts one.
func upGiven(ctx context.Context, c Config, name string) (bool, error) {
	return false, c.ready(ctx, name, 60*time.Second)
}
