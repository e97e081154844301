package writes

import (
	"context"
	"errors"
	"fmt"
	"log"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/given/events"
	"github.com/peakload/workshop/internal/given/metrics"
)

// DeadLetterFunc stores refused documents somewhere they can always be
// written (events.Store.DeadLetters: a collection of their own, the
// document kept as text), for a person to look at later.
type DeadLetterFunc func(ctx context.Context, refused events.Refused) error

// DeadLetter wraps write so that a document the database refused for good
// is dead-lettered and counted (peakload_events_rejected_total{reason})
// instead of returned for a retry, and logged at most once per logEvery.
// What failed for another reason (the network, a timeout, a database
// restarting) is still returned: writes.Persist retries it with backoff.
// So accepted = persisted + rejected, and nothing is retried without end.
// If the dead letters cannot be written either, the refused documents stay
// in retry: they are not dropped.
func DeadLetter(write WriteFunc, sink DeadLetterFunc) WriteFunc {
	logger := &refusalLog{every: logEvery}
	return func(ctx context.Context, docs []bson.D) ([]bson.D, error) {
		retry, err := write(ctx, docs)
		var refused events.Refused
		if !errors.As(err, &refused) || len(refused) == 0 {
			return retry, err
		}
		letters, keep := split(retry, refused)
		if serr := sink(ctx, letters); serr != nil {
			return retry, errors.Join(err, fmt.Errorf("dead letters not written: %w", serr))
		}
		for _, r := range letters {
			metrics.EventsRejected.WithLabelValues(r.Reason).Inc()
		}
		if len(letters) > 0 {
			logger.note(letters)
		}
		if len(keep) == 0 {
			return nil, refused // nothing left to retry: Persist stops here
		}
		return keep, err
	}
}

// split sorts retry into the documents a refusal names by _id — one dead
// letter each: a reduced counter's refusal stands for every request behind
// it — and those to keep for a retry.
func split(retry []bson.D, refused events.Refused) (letters events.Refused, keep []bson.D) {
	for _, d := range retry {
		i := slices.IndexFunc(refused, func(r events.Refusal) bool { return sameID(events.IDOf(r.Doc), events.IDOf(d)) })
		if i < 0 {
			keep = append(keep, d)
			continue
		}
		letters = append(letters, events.Refusal{Doc: d, Reason: refused[i].Reason, Err: refused[i].Err})
	}
	return letters, keep
}

func sameID(a, b any) bool {
	if a == nil || b == nil {
		return false
	}
	defer func() { _ = recover() }() // an _id of an incomparable type is no match
	return a == b
}

// logEvery bounds the log: a stream of poison events is one line per
// interval, with the counts by reason, not one line per event.
const logEvery = 10 * time.Second

type refusalLog struct {
	mu       sync.Mutex
	every    time.Duration
	last     time.Time
	byReason map[string]int
}

func (l *refusalLog) note(refused events.Refused) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.byReason == nil {
		l.byReason = map[string]int{}
	}
	for _, r := range refused {
		l.byReason[r.Reason]++
	}
	if time.Since(l.last) < l.every {
		return
	}
	var parts []string
	for _, reason := range slices.Sorted(maps.Keys(l.byReason)) {
		parts = append(parts, fmt.Sprintf("%s ×%d", reason, l.byReason[reason]))
	}
	log.Printf("writes: refused for good by the database and dead-lettered, not retried: %s (latest: %v); next summary in %s at the earliest",
		strings.Join(parts, ", "), refused[len(refused)-1].Err, l.every)
	l.last, l.byReason = time.Now(), nil
}

// One turns a one-document write (InsertOne, IncOne) into a WriteFunc of
// one document: async's background insert goes through Persist and
// DeadLetter like a batch.
func One(write func(context.Context, bson.D) error) WriteFunc {
	return func(ctx context.Context, docs []bson.D) ([]bson.D, error) {
		var retry []bson.D
		var errs []error
		for _, d := range docs {
			if err := write(ctx, d); err != nil {
				retry, errs = append(retry, d), append(errs, err)
			}
		}
		return retry, events.JoinRefused(errs...)
	}
}
