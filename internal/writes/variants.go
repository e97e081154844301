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

	"github.com/peakload/workshop/internal/events"
	"github.com/peakload/workshop/internal/metrics"
)

// Accept is the HTTP shell of every write variant: read and validate the
// event (400 naming the field), hand the document to add, answer status.
// A full buffer or a closing server is 503 with Retry-After: the client
// retries, nothing accepted is lost.
func Accept(add func(ctx context.Context, doc bson.D) error, status int) echo.HandlerFunc {
	return func(c echo.Context) error {
		body, err := io.ReadAll(c.Request().Body)
		if err != nil {
			return err // the body limit's 413, or a broken connection
		}
		e, err := events.Decode(body)
		if err != nil {
			return echo.NewHTTPError(http.StatusBadRequest, err.Error())
		}
		doc, err := e.Document(time.Now().UTC())
		if err != nil {
			return echo.NewHTTPError(http.StatusBadRequest, err.Error())
		}
		if err := add(c.Request().Context(), doc); err != nil {
			if errors.Is(err, ErrFull) || errors.Is(err, ErrClosed) {
				c.Response().Header().Set("Retry-After", "1")
				return echo.NewHTTPError(http.StatusServiceUnavailable, err.Error())
			}
			c.Response().Header().Set("Retry-After", "1")
			return echo.NewHTTPError(http.StatusServiceUnavailable, "database unavailable: "+err.Error())
		}
		metrics.EventsAccepted.Inc()
		return c.JSONBlob(status, []byte(`{"ok":true}`))
	}
}

// Async is insert_async: answer first, insert in the background, one
// round trip per event. The work is not smaller, only later — the
// "additional time" after the load. Its backlog is bounded so that a slow
// database cannot exhaust the machine.
type Async struct {
	write    func(context.Context, bson.D) error
	inflight chan struct{}
	wg       sync.WaitGroup
}

// NewAsync runs write in the background, at most limit at a time.
func NewAsync(write func(context.Context, bson.D) error, limit int) *Async {
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
		Persist(func(ctx context.Context, docs []bson.D) ([]bson.D, error) {
			if err := a.write(ctx, docs[0]); err != nil {
				return docs, err
			}
			return nil, nil
		}, []bson.D{doc})
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
// of 100 (B4 + B7). Failed documents are returned for a retry.
func GroupWrite(store *events.Store) WriteFunc {
	return func(ctx context.Context, docs []bson.D) ([]bson.D, error) {
		var mu sync.Mutex
		var retry []bson.D
		var first error
		for start := 0; start < len(docs); start += 100 {
			var wg sync.WaitGroup
			for _, d := range docs[start:min(start+100, len(docs))] {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if err := store.InsertOne(ctx, d); err != nil {
						mu.Lock()
						retry, first = append(retry, d), err
						mu.Unlock()
					}
				}()
			}
			wg.Wait()
		}
		return retry, first
	}
}
