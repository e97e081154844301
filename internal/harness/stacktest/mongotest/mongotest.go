// Package mongotest gives tests the events store on the stack's MongoDB.
// It is apart from internal/harness/stacktest so that only the tests that write
// events (steps 6 and 7, the write path's packages) link the MongoDB
// driver: every other step's check builds without it.
package mongotest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/peakload/workshop/internal/given/events"
	"github.com/peakload/workshop/internal/harness/stacktest"
)

// Store returns the events store on the stack's MongoDB (FerretDB
// natively) with a collection of the test's own, dropped when t ends:
// counts are then exact and fast, whatever else wrote events.
func Store(t testing.TB) *events.Store {
	t.Helper()
	stacktest.SkipShort(t, "MongoDB")
	s, err := events.Open(context.Background(), stacktest.Endpoints(t).MongoURL)
	if err != nil {
		t.Fatalf("%v\n(run `make up` first, or use `make test` / `make step-N check`, which start it)", err)
	}
	name := fmt.Sprintf("test_%s_%d", strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, t.Name()), time.Now().UnixNano())
	s.Events = s.Client.Database("workshop").Collection(name)
	s.DeadLetterColl = s.Client.Database("workshop").Collection(name + "_dead_letters")
	t.Cleanup(func() {
		_ = s.Events.Drop(context.Background())
		_ = s.DeadLetterColl.Drop(context.Background())
		_ = s.Close(context.Background())
	})
	return s
}
