package events

import (
	"context"
	"errors"
	"fmt"
	"regexp"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/peakload/workshop/internal/given/metrics"
	"github.com/peakload/workshop/internal/given/tracking"
)

// Counters are the author's repository's counters (express-counter.js, added
// after the article; the article announces only a part 2): {_id, value} documents incremented with
// $inc and upsert (views, likes, clicks per item).
type Counters struct {
	Coll *mongo.Collection
	// stopsAtFirstError: FerretDB 1.24 ends an unordered update command at
	// its first failing update, having applied those before it, and reports
	// that error at index 0 whatever its position (measured). MongoDB goes
	// on and reports each error at its own index.
	stopsAtFirstError bool
}

// Counters returns the counters collection of the store's database.
func (s *Store) Counters() *Counters {
	return &Counters{Coll: s.Client.Database("workshop").Collection("counters"), stopsAtFirstError: s.Rules.Store == FerretDB.Store}
}

// Variant is a collection of counters of its own for one way of writing
// them (step 7 runs four over the same ids): each starts empty and inherits
// no other's writes. It also spares FerretDB 1.24, which can stall — and
// wedge every later write — on documents another variant has just updated
// thousands of times from 100 connections.
func (c *Counters) Variant(name string) *Counters {
	return &Counters{Coll: c.Coll.Database().Collection(c.Coll.Name() + "_" + name), stopsAtFirstError: c.stopsAtFirstError}
}

var counterID = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,64}$`)

// CheckCounterID validates a counter id from a URL: 1–64 letters, digits,
// '_', '-' or '.'.
func CheckCounterID(id string) error {
	if !counterID.MatchString(id) {
		return &tracking.FieldError{Field: "id", Reason: "must be 1-64 letters, digits, '_', '-' or '.'"}
	}
	return nil
}

// Batch names one flush of a write-behind writer, so that its retries can
// be recognised: Writer is unique to the writing process (a new one at
// every start), Seq grows by one per batch and stays the same while that
// batch is retried. The writer must write its batches one after the other.
type Batch struct {
	Writer string
	Seq    int64
	Retry  bool // sent before: some counters may already hold it
}

type batchKey struct{}

// WithBatch returns ctx carrying b: IncMany then applies each increment at
// most once per batch, however often the batch is retried, provided the
// batch holds each counter once (counters.Idempotent).
func WithBatch(ctx context.Context, b Batch) context.Context {
	return context.WithValue(ctx, batchKey{}, b)
}

// Inc is one increment to apply: counter id and amount.
type Inc struct {
	ID string
	N  int64
}

// IncOne applies one increment: one round trip, one write. An increment
// the database refuses for good (the counter holds a value that is not a
// number, or would overflow) comes back as Refused.
func (c *Counters) IncOne(ctx context.Context, id string, n int64) error {
	metrics.DBWrites.Inc()
	_, err := c.Coll.UpdateOne(ctx, bson.D{{Key: "_id", Value: id}},
		bson.D{{Key: "$inc", Value: bson.D{{Key: "value", Value: n}}}}, options.UpdateOne().SetUpsert(true))
	if err == nil {
		return nil
	}
	var we mongo.WriteException
	if errors.As(err, &we) && len(we.WriteErrors) == 1 {
		if r, ok := refusal(bson.D{{Key: "_id", Value: id}}, we.WriteErrors[0]); ok {
			return errors.Join(fmt.Errorf("counters: inc %s: %w", id, err), Refused{r})
		}
	}
	return fmt.Errorf("counters: inc %s: %w", id, err)
}

// DeadLetters stores increments the database refused for good
// (writes.DeadLetter calls it): one per request, in the database's
// dead_letters collection, named by the counters' collection.
func (c *Counters) DeadLetters(ctx context.Context, refused Refused) error {
	return deadLetters(ctx, c.Coll.Database().Collection("dead_letters"), c.Coll.Name(), refused)
}

// bulkChunk bounds one BulkWrite: FerretDB 1.x (SQLite) slows down more
// than linearly with the number of updates in one command.
const bulkChunk = 100

// IncMany applies increments with BulkWrite (unordered), one write per
// element, and returns the indexes that failed; those the database refused
// for good are among them, and in the error as Refused (one per counter id). The increments are sent in
// rounds in which every id appears once: FerretDB 1.24 stalls (seconds to
// minutes) on an update command that touches the same existing document
// several times, and a real MongoDB is indifferent to it. Each round is
// one round trip per bulkChunk increments.
//
// When ctx carries a Batch (WithBatch) and every id appears once, the
// updates are guarded by it (incChunk): a retry of the batch applies
// nothing twice. An id that appears twice cannot be guarded by one number
// per batch — the second increment would look like a retry of the first —
// so such a batch is written unguarded, at-least-once: reducing first
// (one increment per id) is what makes exactly-once this cheap.
func (c *Counters) IncMany(ctx context.Context, incs []Inc) (failed []int, err error) {
	var rounds [][]int // indexes into incs
	seen := map[string]int{}
	for i, in := range incs {
		r := seen[in.ID]
		seen[in.ID] = r + 1
		if r == len(rounds) {
			rounds = append(rounds, nil)
		}
		rounds[r] = append(rounds[r], i)
	}
	if len(rounds) > 1 {
		ctx = context.WithValue(ctx, batchKey{}, nil) // repeated ids: no guard
	}
	for _, round := range rounds {
		for start := 0; start < len(round); start += bulkChunk {
			idx := round[start:min(start+bulkChunk, len(round))]
			chunk := make([]Inc, len(idx))
			for j, i := range idx {
				chunk[j] = incs[i]
			}
			f, e := c.incChunk(ctx, chunk)
			for _, j := range f {
				failed = append(failed, idx[j])
			}
			err = JoinRefused(err, e)
		}
	}
	return failed, err
}

// incChunk sends one BulkWrite. When ctx carries a Batch, each update is
// guarded by it: it applies only to a counter whose applied.<writer> is
// below the batch's Seq, and raises it to Seq in the same atomic update. A
// retry of a batch that did get in therefore matches nothing; its upsert
// then tries to insert the existing _id, and that duplicate key (11000) is
// the proof that the increment is already there: it counts as applied.
//
// On a retry the counters that already hold the batch are looked up first
// (applied) and left out. A duplicate can still come back (a counter
// written by the first attempt after the lookup): FerretDB 1.24 stops an
// unordered update command at its first duplicate key and reports nothing
// about the updates after it (MongoDB goes on), so the updates that follow
// a duplicate are sent again — the guard makes that safe on either server.
func (c *Counters) incChunk(ctx context.Context, incs []Inc) (failed []int, err error) {
	b, guarded := ctx.Value(batchKey{}).(Batch)
	models := updates(incs, b, guarded)
	done, err := c.applied(ctx, b, guarded, incs)
	if err != nil {
		return allIndexes(incs), err
	}
	send := notYetApplied(incs, done) // indexes into incs still to send
	var o bulkOutcome
	for len(send) > 0 {
		batch := make([]mongo.WriteModel, len(send))
		for j, i := range send {
			batch[j] = models[i]
		}
		metrics.DBWrites.Add(float64(len(batch)))
		_, err = c.Coll.BulkWrite(ctx, batch, options.BulkWrite().SetOrdered(false))
		if err == nil {
			break
		}
		var bwe mongo.BulkWriteException
		if !errors.As(err, &bwe) || bwe.WriteConcernError != nil {
			// The whole command failed (no connection, a timeout): nothing
			// says which updates got in, the caller retries them all.
			return append(o.failed, send...), fmt.Errorf("counters: bulk %d: %w", len(incs), err)
		}
		send = c.sortErrors(&o, bwe.WriteErrors, incs, send, guarded)
	}
	return o.result(len(incs))
}

// updates are the chunk's upserts, one per increment. Guarded by a batch,
// an update matches only a counter that does not hold the batch yet
// (applied.<writer> below Seq), and marks it as holding it in the same
// atomic update ($max): applied and marked, or neither.
func updates(incs []Inc, b Batch, guarded bool) []mongo.WriteModel {
	models := make([]mongo.WriteModel, len(incs))
	for i, in := range incs {
		filter := bson.D{{Key: "_id", Value: in.ID}}
		update := bson.D{{Key: "$inc", Value: bson.D{{Key: "value", Value: in.N}}}}
		if guarded {
			applied := "applied." + b.Writer
			filter = append(filter, bson.E{Key: applied, Value: bson.D{{Key: "$not", Value: bson.D{{Key: "$gte", Value: b.Seq}}}}})
			update = append(update, bson.E{Key: "$max", Value: bson.D{{Key: applied, Value: b.Seq}}})
		}
		models[i] = mongo.NewUpdateOneModel().SetFilter(filter).SetUpdate(update).SetUpsert(true)
	}
	return models
}

// notYetApplied leaves out the increments whose counter already holds the
// batch (done, from applied), counting each as a duplicate, and returns
// the indexes of the others.
func notYetApplied(incs []Inc, done map[string]bool) []int {
	var send []int
	for i, in := range incs {
		if done[in.ID] {
			metrics.EventsDuplicates.Add(float64(in.N))
		} else {
			send = append(send, i)
		}
	}
	return send
}

// allIndexes is every index of incs: all failed.
func allIndexes(incs []Inc) []int {
	all := make([]int, len(incs))
	for i := range all {
		all[i] = i
	}
	return all
}

// bulkOutcome is what went wrong over a chunk's attempts: the increments
// that failed (indexes into incs), those among them the database refused
// for good, and the first error, for the message.
type bulkOutcome struct {
	failed  []int
	refused Refused
	first   error
}

// sortErrors reads one BulkWrite's errors and returns what to send again.
// A duplicate key (11000) on a guarded update is an increment an earlier
// attempt applied: done. Any other error fails its increment. The updates
// after the last duplicate — and on FerretDB after any error — may not
// have been tried (FerretDB stops there and says nothing of them): they
// are sent again, which the guard makes safe on either server.
func (c *Counters) sortErrors(o *bulkOutcome, errs []mongo.BulkWriteError, incs []Inc, send []int, guarded bool) []int {
	dup, bad := -1, map[int]bool{} // the last duplicate's position in send; the other errors
	for _, we := range errs {
		at := c.position(we, incs, send)
		if at < 0 {
			continue
		}
		if guarded && we.Code == 11000 {
			metrics.EventsDuplicates.Add(float64(incs[send[at]].N)) // applied by an earlier attempt
			dup = max(dup, at)
			continue
		}
		bad[at] = true
		o.fail(send[at], incs[send[at]].ID, we)
		if c.stopsAtFirstError {
			dup = max(dup, at) // what follows it was not applied: send it again
		}
	}
	var again []int // after the last duplicate: unknown on FerretDB, send again
	for j := dup + 1; dup >= 0 && j < len(send); j++ {
		if !bad[j] {
			again = append(again, send[j])
		}
	}
	return again
}

// fail records increment i (counter id) as failed with we, and as refused
// for good when the error says the counter can never take it.
func (o *bulkOutcome) fail(i int, id string, we mongo.BulkWriteError) {
	o.failed = append(o.failed, i)
	if r, ok := refusal(bson.D{{Key: "_id", Value: id}}, we.WriteError); ok {
		o.refused = append(o.refused, r)
	}
	if o.first == nil {
		o.first = we
	}
}

// result is incChunk's answer: nil when every increment got in, else the
// failed indexes and an error naming how many, with the refusals.
func (o *bulkOutcome) result(n int) ([]int, error) {
	if len(o.failed) == 0 {
		return nil, nil
	}
	err := fmt.Errorf("counters: bulk %d: %d failed: %w", n, len(o.failed), o.first)
	if len(o.refused) > 0 {
		err = errors.Join(err, o.refused)
	}
	return o.failed, err
}

// ferretID finds the counter FerretDB names in an update's error:
// `… {_id: "views-7"} has the field …`.
var ferretID = regexp.MustCompile(`\{_id: "((?:[^"\\]|\\.)*)"\}`)

// position returns where in send the update an error is about sits, or -1.
// MongoDB's index says it. FerretDB's is always 0, so its message, which
// names the counter, does: each id is once in a chunk (IncMany's rounds).
func (c *Counters) position(we mongo.BulkWriteError, incs []Inc, send []int) int {
	if c.stopsAtFirstError {
		if m := ferretID.FindStringSubmatch(we.Message); m != nil {
			for j, i := range send {
				if incs[i].ID == m[1] {
					return j
				}
			}
		}
	}
	if we.Index < 0 || we.Index >= len(send) {
		return -1
	}
	return we.Index
}

// applied returns, on a retry of a guarded batch, the counters that already
// hold it: one query instead of one duplicate key, and on FerretDB one
// command, per counter the first attempt reached.
func (c *Counters) applied(ctx context.Context, b Batch, guarded bool, incs []Inc) (map[string]bool, error) {
	if !guarded || !b.Retry {
		return nil, nil
	}
	ids := make([]string, len(incs))
	for i, in := range incs {
		ids[i] = in.ID
	}
	cur, err := c.Coll.Find(ctx, bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: ids}}},
		{Key: "applied." + b.Writer, Value: bson.D{{Key: "$gte", Value: b.Seq}}}},
		options.Find().SetProjection(bson.D{{Key: "_id", Value: 1}}))
	if err != nil {
		return nil, fmt.Errorf("counters: which of %d hold batch %d: %w", len(ids), b.Seq, err)
	}
	var docs []struct {
		ID string `bson:"_id"`
	}
	if err := cur.All(ctx, &docs); err != nil {
		return nil, fmt.Errorf("counters: which of %d hold batch %d: %w", len(ids), b.Seq, err)
	}
	done := make(map[string]bool, len(docs))
	for _, d := range docs {
		done[d.ID] = true
	}
	return done, nil
}

// Value reads a counter (0 when absent).
func (c *Counters) Value(ctx context.Context, id string) (int64, error) {
	var doc struct {
		Value int64 `bson:"value"`
	}
	err := c.Coll.FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Decode(&doc)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return 0, nil
	}
	return doc.Value, err
}

// Sum adds up every counter of the collection: the increments applied.
func (c *Counters) Sum(ctx context.Context) (int64, error) {
	cur, err := c.Coll.Find(ctx, bson.D{})
	if err != nil {
		return 0, fmt.Errorf("counters: sum: %w", err)
	}
	defer cur.Close(ctx)
	var total int64
	for cur.Next(ctx) {
		var doc struct {
			Value int64 `bson:"value"`
		}
		if err := cur.Decode(&doc); err != nil {
			return 0, fmt.Errorf("counters: sum: %w", err)
		}
		total += doc.Value
	}
	return total, cur.Err()
}
