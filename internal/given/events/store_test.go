package events_test

import (
	"encoding/json"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/given/events"
	"github.com/peakload/workshop/internal/given/tracking"
	"github.com/peakload/workshop/internal/harness/stacktest/mongotest"
)

// A batch retried after an unknown outcome must not store anything twice:
// documents carry their _id, and duplicates count as already persisted.
func TestInsertManyRetryIsIdempotent(t *testing.T) {
	store := mongotest.Store(t)
	ctx := t.Context()
	var docs []bson.D
	for i := range 20 {
		e := tracking.Event{Name: "click", Data: json.RawMessage(`{"n":` + string(rune('0'+i%10)) + `}`), Timestamp: 1632404556}
		d, err := events.Document(e, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, d)
	}
	before, _ := store.Count(ctx)
	if retry, err := store.InsertMany(ctx, docs); err != nil || len(retry) != 0 {
		t.Fatalf("first insert: %v, %d to retry", err, len(retry))
	}
	if retry, err := store.InsertMany(ctx, docs); err != nil || len(retry) != 0 {
		t.Fatalf("the same batch again: %v, %d to retry; want duplicates treated as persisted", err, len(retry))
	}
	if after, _ := store.Count(ctx); after-before != 20 {
		t.Fatalf("stored %d, want 20 (no duplicates)", after-before)
	}
}
