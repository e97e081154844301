package events

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// Refusal is one document the database refused for good — an invalid key,
// a value of the wrong type, a duplicate on a unique index: sending it
// again cannot succeed. It is a poison message: retried like a network
// error, it is retried for ever and holds every event behind it.
type Refusal struct {
	Doc    bson.D // its _id names the document (a counter's: every increment of it)
	Reason string // a short label: invalid_key, type_mismatch, duplicate_key, …
	Err    error  // what the database said
}

// Refused is the error a write returns when the database refused some
// documents for good. They are also in the write's retry list (they were
// not written, so nothing counts them as persisted); writes.DeadLetter
// takes them out of it and sets them aside.
type Refused []Refusal

func (r Refused) Error() string {
	if len(r) == 0 {
		return "no document refused"
	}
	return fmt.Sprintf("%d refused for good (%s: %v)", len(r), r[0].Reason, r[0].Err)
}

// permanent names the per-document write errors that no retry can get
// past, by MongoDB error code (FerretDB uses the same codes). Anything else
// — a network error, a timeout, a primary stepping down, FerretDB's
// InternalError while PostgreSQL restarts — may pass, and is retried.
var permanent = map[int]string{
	2:     "bad_value",       // BadValue: FerretDB's invalid key / nested array, $inc overflow
	9:     "bad_value",       // FailedToParse
	14:    "type_mismatch",   // TypeMismatch: $inc on a value that is not a number
	15:    "overflow",        // Overflow
	52:    "invalid_key",     // DollarPrefixedFieldName
	53:    "invalid_id",      // InvalidIdField
	56:    "invalid_key",     // EmptyFieldName
	57:    "invalid_key",     // DottedFieldName
	66:    "invalid_id",      // ImmutableField
	121:   "validation",      // DocumentValidationFailure: the collection's validator
	10334: "too_large",       // BSONObjectTooLarge: over 16 MiB
	17280: "key_too_long",    // KeyTooLong: an index key over the limit
	17419: "too_large",       // a document that grew past 16 MiB in an update
	11000: "duplicate_key",   // only when the _id is not ours already (InsertMany)
	16837: "path_conflict",   // an update with conflicting paths
	28:    "path_not_viable", // PathNotViable
}

// refusal classifies one per-document write error. Duplicate keys (11000)
// are the caller's to judge: on our own _id they are a retry that already
// got in, on another unique index they are a refusal.
func refusal(doc bson.D, we mongo.WriteError) (Refusal, bool) {
	reason, ok := permanent[we.Code]
	if !ok || we.Code == 11000 {
		return Refusal{}, false
	}
	if we.Code == 2 && strings.HasPrefix(we.Message, "invalid key") {
		reason = "invalid_key"
	}
	return Refusal{Doc: doc, Reason: reason, Err: errors.New(we.Message)}, true
}

// unencodable returns the documents the driver cannot encode (a key with a
// NUL byte, say): the whole InsertMany fails before it is sent, and would
// fail the same way at every retry. Checked only when a write failed
// without an answer from the server.
func unencodable(docs []bson.D) (bad Refused) {
	for _, d := range docs {
		if _, err := bson.Marshal(d); err != nil {
			bad = append(bad, Refusal{Doc: d, Reason: "unencodable", Err: err})
		}
	}
	return bad
}

// deadLetters writes refused documents into coll as text, with why, so
// that they can always be stored (the document itself could not be) and a
// person can look at them later. A document's ObjectID _id becomes the
// dead letter's, so writing the same refusal twice stores it once.
func deadLetters(ctx context.Context, coll *mongo.Collection, from string, refused Refused) error {
	if len(refused) == 0 {
		return nil
	}
	now := time.Now().UTC()
	letters := make([]any, len(refused))
	for i, r := range refused {
		id, ok := IDOf(r.Doc).(bson.ObjectID)
		if !ok {
			id = bson.NewObjectID()
		}
		text, err := bson.MarshalExtJSON(r.Doc, false, false)
		if err != nil {
			text = fmt.Appendf(nil, "%v", r.Doc)
		}
		letters[i] = bson.D{{Key: "_id", Value: id}, {Key: "collection", Value: from}, {Key: "reason", Value: r.Reason},
			{Key: "error", Value: fmt.Sprint(r.Err)}, {Key: "refused_at", Value: now}, {Key: "document", Value: string(text)}}
	}
	_, err := coll.InsertMany(ctx, letters, options.InsertMany().SetOrdered(false))
	var bwe mongo.BulkWriteException
	if errors.As(err, &bwe) && bwe.WriteConcernError == nil {
		for _, we := range bwe.WriteErrors {
			if we.Code != 11000 { // 11000: written by an earlier attempt
				return fmt.Errorf("events: dead letters: %w", err)
			}
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("events: dead letters: %w", err)
	}
	return nil
}

// JoinRefused joins errors, gathering every Refused among them into one,
// so that errors.As finds all the refusals, not only the first
func JoinRefused(errs ...error) error {
	var all Refused
	var other []error
	for _, err := range errs {
		if r, ok := err.(Refused); ok && len(r) == 0 {
			continue // an empty Refused is no error
		}
		var r Refused
		if errors.As(err, &r) {
			all = append(all, r...)
		}
		if err != nil {
			other = append(other, err)
		}
	}
	if len(all) == 0 {
		return errors.Join(other...)
	}
	return errors.Join(all, errors.Join(other...)) // all first: errors.As finds the whole set
}

// IDOf returns a document's _id (nil when it has none).
func IDOf(doc bson.D) any {
	for _, e := range doc {
		if e.Key == "_id" {
			return e.Value
		}
	}
	return nil
}
