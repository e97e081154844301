package writes

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/peakload/workshop/internal/given/events"
	"github.com/peakload/workshop/internal/given/metrics"
	"github.com/peakload/workshop/internal/given/tracking"
)

// Accept is the HTTP shell of every write variant: read and validate the
// event — its fields, then its document against the rules of the database
// in use (400 naming the field: what the database would refuse for good
// must not be acknowledged) — hand the document to add, answer status.
// A full buffer or a closing server is 503 with Retry-After: the client
// retries, nothing accepted is lost.
func Accept(rules events.Rules, add func(ctx context.Context, doc bson.D) error, status int) echo.HandlerFunc {
	return func(c echo.Context) error {
		body, err := io.ReadAll(c.Request().Body)
		if err != nil {
			return err // the body limit's 413, or a broken connection
		}
		e, err := tracking.Decode(body)
		if err != nil {
			return echo.NewHTTPError(http.StatusBadRequest, err.Error())
		}
		doc, err := events.Document(e, time.Now().UTC())
		if err == nil {
			err = rules.Check(doc)
		}
		if err != nil {
			return echo.NewHTTPError(http.StatusBadRequest, err.Error())
		}
		if err := add(c.Request().Context(), doc); err != nil {
			return Refuse(c, err)
		}
		metrics.EventsAccepted.Inc()
		return c.JSONBlob(status, []byte(`{"ok":true}`))
	}
}

// Refuse answers a write that was not accepted. A document the database
// refused for good (only sync meets it: the others answer before writing)
// is 422 naming the refusal — never 503 + Retry-After, which would tell the
// client to send for ever what can never be written. A full buffer, a
// closing server or a database that failed is 503 + Retry-After.
func Refuse(c echo.Context, err error) error {
	var refused events.Refused
	if errors.As(err, &refused) && len(refused) > 0 {
		return echo.NewHTTPError(http.StatusUnprocessableEntity,
			fmt.Sprintf("the database refused this document for good (%s): %v", refused[0].Reason, refused[0].Err))
	}
	c.Response().Header().Set("Retry-After", "1")
	if errors.Is(err, ErrFull) || errors.Is(err, ErrClosed) {
		return echo.NewHTTPError(http.StatusServiceUnavailable, err.Error())
	}
	return echo.NewHTTPError(http.StatusServiceUnavailable, "database unavailable: "+err.Error())
}

// Async is insert_async: answer first, insert in the background, one
// round trip per event. The work is not smaller, only later — the
// "additional time" after the load. Its backlog is bounded so that a slow
// database cannot exhaust the machine.
type Async struct {
	write    WriteFunc
	inflight chan struct{}
	wg       sync.WaitGroup
}

// NewAsync runs write in the background, one document per call (One), at
// most limit at a time.
func NewAsync(write WriteFunc, limit int) *Async {
	return &Async{write: write, inflight: make(chan struct{}, limit)}
}

// Add starts the insert and returns at once; past the limit it waits for
// a slot (the request's latency becomes the backpressure), or gives up
// with ErrFull when the client does.
func (a *Async) Add(ctx context.Context, doc bson.D) error {
	select {
	case a.inflight <- struct{}{}:
	case <-ctx.Done():
		return ErrFull
	}
	metrics.QueueDepth.Inc()
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		defer func() { <-a.inflight; metrics.QueueDepth.Dec() }()
		Persist(a.write, []bson.D{doc})
	}()
	return nil
}

// Wait waits for the background inserts (graceful shutdown).
func (a *Async) Wait(ctx context.Context) error {
	done := make(chan struct{})
	go func() { a.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("async: shutdown deadline: %d inserts still in flight", len(a.inflight))
	}
}

// GroupWrite is insert_group's write: the buffered documents inserted one
// by one, 100 at a time concurrently — the article's Promise.all in groups
// of 100 (B4 + B7). Failed documents are returned for a retry, and the
// refusals among them gathered into one Refused (DeadLetter sets them aside).
func GroupWrite(store *events.Store) WriteFunc {
	return func(ctx context.Context, docs []bson.D) ([]bson.D, error) {
		var mu sync.Mutex
		var retry []bson.D
		var errs []error
		for start := 0; start < len(docs); start += 100 {
			var wg sync.WaitGroup
			for _, d := range docs[start:min(start+100, len(docs))] {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if err := store.InsertOne(ctx, d); err != nil {
						mu.Lock()
						retry, errs = append(retry, d), append(errs, err)
						mu.Unlock()
					}
				}()
			}
			wg.Wait()
		}
		return retry, events.JoinRefused(errs...)
	}
}
