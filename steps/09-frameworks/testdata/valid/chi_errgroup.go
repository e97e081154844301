// chi_errgroup: chi with a body-limit middleware (MaxBytesReader on every request) and an errgroup: Serve in one goroutine, Shutdown on ctx.Done in another, both waited for
// vi: chi với một middleware giới hạn body (MaxBytesReader trên mọi request) và một errgroup: Serve trong một goroutine, Shutdown khi ctx.Done trong goroutine khác, chờ cả hai

//go:build !solution

package main

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/peakload/workshop/internal/given/endpoints"
	"github.com/peakload/workshop/internal/given/server"
	"golang.org/x/sync/errgroup"
)

// serveYours is the framework you add: FRAMEWORK=yours.
func serveYours(ctx context.Context, ln net.Listener, app *endpoints.App) error {
	r := chi.NewRouter()
	r.Use(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			r.Body = http.MaxBytesReader(w, r.Body, server.BodyLimit)
			next.ServeHTTP(w, r)
		})
	})
	r.NotFound(func(w http.ResponseWriter, _ *http.Request) {
		endpoints.WriteJSON(w, http.StatusNotFound, endpoints.NotFound)
	})
	r.MethodNotAllowed(func(w http.ResponseWriter, _ *http.Request) {
		endpoints.WriteJSON(w, http.StatusMethodNotAllowed, endpoints.NotAllowed)
	})
	r.Get(endpoints.EmptyPath, func(w http.ResponseWriter, _ *http.Request) { endpoints.WriteJSON(w, http.StatusOK, app.Empty()) })
	r.Post(endpoints.ValidatePath, func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			endpoints.WriteJSON(w, http.StatusRequestEntityTooLarge, endpoints.TooLarge)
			return
		} else if err != nil {
			endpoints.WriteJSON(w, http.StatusBadRequest, endpoints.Error(err.Error()))
			return
		}
		code, out := app.Validate(body)
		endpoints.WriteJSON(w, code, out)
	})
	r.Get(endpoints.ItemsPrefix+"{id}", func(w http.ResponseWriter, r *http.Request) {
		code, out := app.Item(r.Context(), chi.URLParam(r, "id"))
		endpoints.WriteJSON(w, code, out)
	})
	r.Get(endpoints.HealthPath, func(w http.ResponseWriter, _ *http.Request) { endpoints.WriteJSON(w, http.StatusOK, app.Health()) })
	r.Method(http.MethodGet, endpoints.MetricsPath, endpoints.Metrics)

	srv := endpoints.HTTPServer(r)
	g, gctx := errgroup.WithContext(ctx)        // gctx also ends if Serve fails
	g.Go(func() error { return srv.Serve(ln) }) // http.ErrServerClosed once Shutdown starts
	g.Go(func() error {
		<-gctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), server.WriteTimeout)
		defer cancel()
		return srv.Shutdown(sctx) // returns once the requests in flight are answered
	})
	if err := g.Wait(); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
