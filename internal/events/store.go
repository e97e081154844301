package events

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/event"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/peakload/workshop/internal/metrics"
)

// Store writes events to MongoDB (FerretDB natively, mongod in compose).
// Every command is counted at the driver: the round trips of article B.
type Store struct {
	Client *mongo.Client
	Events *mongo.Collection
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
	return &Store{Client: client, Events: client.Database("workshop").Collection("events")}, nil
}

// Close disconnects.
func (s *Store) Close(ctx context.Context) error { return s.Client.Disconnect(ctx) }

// Document is what is stored: the event, its data as a subdocument, and
// when the API accepted it.
func (e Event) Document(received time.Time) (bson.D, error) {
	var data bson.D
	if err := bson.UnmarshalExtJSON(e.Data, false, &data); err != nil {
		return nil, &FieldError{Field: "data", Reason: "cannot be stored: " + err.Error()}
	}
	return bson.D{{Key: "_id", Value: bson.NewObjectID()}, {Key: "event_name", Value: e.Name}, {Key: "data", Value: data},
		{Key: "timestamp", Value: e.Timestamp}, {Key: "received_at", Value: received}}, nil
}

// InsertOne writes one event: one round trip.
func (s *Store) InsertOne(ctx context.Context, doc bson.D) error {
	metrics.DBWrites.Inc()
	if _, err := s.Events.InsertOne(ctx, doc); err != nil {
		if !mongo.IsDuplicateKeyError(err) {
			return fmt.Errorf("events: insert: %w", err)
		}
		metrics.EventsDuplicates.Inc()
	}
	metrics.EventsPersisted.Inc()
	return nil
}

// InsertMany writes a batch in one round trip, unordered (one bad document
// does not stop the others). It returns the documents that must be tried
// again. Every document carries its _id from the moment it was accepted,
// so a retry is idempotent: a document that did reach the database the
// first time comes back as a duplicate key (11000) and counts as persisted.
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
		return docs, fmt.Errorf("events: insert %d: %w", len(docs), err) // nothing known: retry all
	}
	for _, we := range bwe.WriteErrors {
		if we.Code == 11000 {
			metrics.EventsDuplicates.Inc()
		} else if we.Index >= 0 && we.Index < len(docs) {
			retry = append(retry, docs[we.Index])
		}
	}
	metrics.EventsPersisted.Add(float64(len(docs) - len(retry)))
	if len(retry) == 0 {
		return nil, nil // only duplicates: a retry of what was already written
	}
	return retry, fmt.Errorf("events: insert %d: %d failed: %w", len(docs), len(retry), err)
}

// Count returns how many events are stored.
func (s *Store) Count(ctx context.Context) (int64, error) {
	return s.Events.CountDocuments(ctx, bson.D{})
}
