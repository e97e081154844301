// Package events is the write side's storage: the tracking events that
// internal/given/tracking accepted, written to MongoDB (one at a time, in bulk,
// or as counters), what the database refuses at the edge (Rules), and the
// documents it refused for good, set aside.
package events

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/event"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/peakload/workshop/internal/given/metrics"
	"github.com/peakload/workshop/internal/given/tracking"
)

// Store writes events to MongoDB (FerretDB natively, mongod in compose).
// Every command is counted at the driver: the round trips of article B.
type Store struct {
	Client *mongo.Client
	Events *mongo.Collection
	// DeadLetters holds the accepted events the database refused for good
	// (DeadLetters, the method): kept as text, with why.
	DeadLetterColl *mongo.Collection
	// Rules are what this database refuses in a document: the edge checks
	// them (writes.Accept) before an event is acknowledged.
	Rules Rules
}

// Open connects with a pool of 100 connections, the article's maxPoolSize.
func Open(ctx context.Context, url string) (*Store, error) {
	monitor := &event.CommandMonitor{Started: func(_ context.Context, e *event.CommandStartedEvent) {
		metrics.MongoCommands.WithLabelValues(e.CommandName).Inc()
	}}
	client, err := mongo.Connect(options.Client().ApplyURI(url).SetMaxPoolSize(100).
		SetServerSelectionTimeout(5 * time.Second).SetMonitor(monitor))
	if err != nil {
		return nil, fmt.Errorf("events: connect %s: %w", url, err)
	}
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := client.Ping(pctx, nil); err != nil {
		_ = client.Disconnect(context.Background())
		return nil, fmt.Errorf("events: MongoDB at %s does not answer (is the stack up? `make up`): %w", url, err)
	}
	db := client.Database("workshop")
	return &Store{Client: client, Events: db.Collection("events"), DeadLetterColl: db.Collection("dead_letters"),
		Rules: rulesOf(pctx, client)}, nil
}

// DeadLetters stores accepted events the database refused for good
// (writes.DeadLetter calls it): workshop.dead_letters, one per event.
func (s *Store) DeadLetters(ctx context.Context, refused Refused) error {
	return deadLetters(ctx, s.DeadLetterColl, s.Events.Name(), refused)
}

// Close disconnects.
func (s *Store) Close(ctx context.Context) error { return s.Client.Disconnect(ctx) }

// Document is what is stored: the event, its data as a subdocument, and
// when the API accepted it.
func Document(e tracking.Event, received time.Time) (bson.D, error) {
	var data bson.D
	if err := bson.UnmarshalExtJSON(e.Data, false, &data); err != nil {
		return nil, &tracking.FieldError{Field: "data", Reason: "cannot be stored: " + err.Error()}
	}
	return bson.D{{Key: "_id", Value: bson.NewObjectID()}, {Key: "event_name", Value: e.Name}, {Key: "data", Value: data},
		{Key: "timestamp", Value: e.Timestamp}, {Key: "received_at", Value: received}}, nil
}

// InsertOne writes one event: one round trip. A document the database
// refuses for good comes back as Refused (sync answers 422; async
// dead-letters it); any other failure may pass and is worth a retry.
func (s *Store) InsertOne(ctx context.Context, doc bson.D) error {
	retry, err := s.InsertMany(ctx, []bson.D{doc})
	if len(retry) == 0 {
		return nil
	}
	return err
}

// InsertMany writes a batch in one round trip, unordered (one bad document
// does not stop the others). It returns the documents that were not
// written, to be tried again, and among them, in the error (Refused), those
// the database refused for good. Every document carries its _id from the
// moment it was accepted, so a retry is idempotent: a document that did
// reach the database the first time comes back as a duplicate key (11000)
// and counts as persisted — after a look that the _id is there: a
// duplicate on another unique index is a refusal.
func (s *Store) InsertMany(ctx context.Context, docs []bson.D) (retry []bson.D, err error) {
	if len(docs) == 0 {
		return nil, nil
	}
	metrics.DBWrites.Add(float64(len(docs)))
	_, err = s.Events.InsertMany(ctx, docs, options.InsertMany().SetOrdered(false))
	if err == nil {
		metrics.EventsPersisted.Add(float64(len(docs)))
		return nil, nil
	}
	var bwe mongo.BulkWriteException
	if !errors.As(err, &bwe) || bwe.WriteConcernError != nil {
		if bad := unencodable(docs); len(bad) > 0 { // never sent: the same at every retry
			return docs, errors.Join(fmt.Errorf("events: insert %d: %w", len(docs), err), bad)
		}
		if dataError(err) {
			return s.isolate(ctx, docs, err)
		}
		return docs, fmt.Errorf("events: insert %d: %w", len(docs), err) // nothing known: retry all
	}
	var refused Refused
	var dups []bson.D
	for _, we := range bwe.WriteErrors {
		if we.Index < 0 || we.Index >= len(docs) {
			continue
		}
		d := docs[we.Index]
		if r, ok := refusal(d, we.WriteError); ok {
			refused = append(refused, r)
		} else if we.Code == 11000 {
			dups = append(dups, d)
		}
		if we.Code != 11000 {
			retry = append(retry, d)
		}
	}
	ours, taken, derr := s.stored(ctx, dups)
	if derr != nil { // cannot tell: try them again, a later look will
		retry = append(retry, dups...)
	}
	metrics.EventsDuplicates.Add(float64(len(ours)))
	for _, d := range taken {
		retry = append(retry, d)
		refused = append(refused, Refusal{Doc: d, Reason: "duplicate_key",
			Err: errors.New("duplicate key on a unique index other than _id: another event already holds that value")})
	}
	metrics.EventsPersisted.Add(float64(len(docs) - len(retry)))
	if len(retry) == 0 {
		return nil, nil // only duplicates: a retry of what was already written
	}
	err = fmt.Errorf("events: insert %d: %d not written: %w", len(docs), len(retry), err)
	if len(refused) > 0 {
		err = errors.Join(err, refused)
	}
	return retry, errors.Join(err, derr)
}

// isolate finds the documents behind a data error that failed the whole
// command: it writes each half of the batch on its own, down to the one
// document that fails alone — a refusal. log₂(batch) more round trips,
// once, instead of the whole batch retried for ever.
func (s *Store) isolate(ctx context.Context, docs []bson.D, err error) ([]bson.D, error) {
	if len(docs) == 1 {
		r := Refusal{Doc: docs[0], Reason: "data_exception", Err: err}
		return docs, errors.Join(fmt.Errorf("events: insert 1: %w", err), Refused{r})
	}
	r1, e1 := s.InsertMany(ctx, docs[:len(docs)/2])
	r2, e2 := s.InsertMany(ctx, docs[len(docs)/2:])
	return append(r1, r2...), JoinRefused(e1, e2)
}

// dataError tells a command that failed on the data it carried from one
// that failed for a reason that can pass. FerretDB on PostgreSQL answers
// InternalError for both, with PostgreSQL's SQLSTATE in the message: class
// 22 is "data exception" (a value PostgreSQL cannot store), permanent;
// connection (08) or resource (53, 57) errors are not.
func dataError(err error) bool {
	var ce mongo.CommandError
	return errors.As(err, &ce) && strings.Contains(ce.Message, "(SQLSTATE 22")
}

// stored splits documents that came back as duplicate keys into those
// whose _id is already in the collection (ours: a retry that got in) and
// the others (taken: a duplicate on another unique index). Only when there
// are duplicates: a few are looked up one by one, by _id — FerretDB 1.24
// answers that from PostgreSQL's index, while an $in reads the whole
// collection (measured: 26 ms against 2.1 s at 30 000 events) — and a
// whole batch that came back (a retry after a lost acknowledgement) with
// one $in.
func (s *Store) stored(ctx context.Context, dups []bson.D) (ours, taken []bson.D, err error) {
	if len(dups) == 0 {
		return nil, nil, nil
	}
	have, err := s.present(ctx, dups)
	if err != nil {
		return nil, nil, fmt.Errorf("events: which of %d duplicates are ours: %w", len(dups), err)
	}
	for _, d := range dups {
		if id, ok := IDOf(d).(bson.ObjectID); ok && have[id] {
			ours = append(ours, d)
		} else {
			taken = append(taken, d)
		}
	}
	return ours, taken, nil
}

// lookupOneByOne is how many duplicates are looked up by _id one at a time.
const lookupOneByOne = 32

// present returns which of the documents' _ids the collection holds.
func (s *Store) present(ctx context.Context, docs []bson.D) (map[bson.ObjectID]bool, error) {
	have := map[bson.ObjectID]bool{}
	only := options.Find().SetProjection(bson.D{{Key: "_id", Value: 1}})
	if len(docs) <= lookupOneByOne {
		for _, d := range docs {
			err := s.Events.FindOne(ctx, bson.D{{Key: "_id", Value: IDOf(d)}}, options.FindOne().SetProjection(bson.D{{Key: "_id", Value: 1}})).Err()
			switch {
			case err == nil:
				if id, ok := IDOf(d).(bson.ObjectID); ok {
					have[id] = true
				}
			case !errors.Is(err, mongo.ErrNoDocuments):
				return nil, err
			}
		}
		return have, nil
	}
	ids := make([]any, len(docs))
	for i, d := range docs {
		ids[i] = IDOf(d)
	}
	cur, err := s.Events.Find(ctx, bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: ids}}}}, only)
	if err != nil {
		return nil, err
	}
	var found []struct {
		ID bson.ObjectID `bson:"_id"`
	}
	if err := cur.All(ctx, &found); err != nil {
		return nil, err
	}
	for _, f := range found {
		have[f.ID] = true
	}
	return have, nil
}

// Count returns how many events are stored.
func (s *Store) Count(ctx context.Context) (int64, error) {
	return s.Events.CountDocuments(ctx, bson.D{})
}
