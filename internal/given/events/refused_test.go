package events

import (
	"errors"
	"fmt"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// JoinRefused gathers every refusal of a set of errors, however wrapped,
// so that errors.As sees them all: a refusal it missed would be retried.
func TestJoinRefusedFindsEveryRefusal(t *testing.T) {
	r := func(id string) Refused {
		return Refused{{Doc: bson.D{{Key: "_id", Value: id}}, Reason: "x", Err: errors.New(id)}}
	}
	err := JoinRefused(errors.New("network"), fmt.Errorf("chunk 1: %w", r("a")), nil,
		JoinRefused(errors.New("timeout"), r("b")), fmt.Errorf("chunk 3: %w", errors.Join(errors.New("y"), r("c"))))
	var got Refused
	if !errors.As(err, &got) || len(got) != 3 {
		t.Fatalf("errors.As found %d refusals in %v, want 3 (a, b, c)", len(got), err)
	}
	if JoinRefused(nil, nil) != nil {
		t.Fatal("JoinRefused of nothing must be nil")
	}
}
