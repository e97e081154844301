// Package chirouter is step 9's reference exercise: the same endpoints on
// chi, a router built on net/http's own interfaces (http.Handler, the
// standard middleware shape). It adds routing and middleware chains to
// the standard library and nothing else, so expect net/http's figures:
// the choice between the two is about ergonomics, not speed.
package chirouter

import (
	"context"
	"net"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/peakload/workshop/internal/given/endpoints"
)

// Serve serves app on ln with chi until ctx is done, then shuts down gracefully.
func Serve(ctx context.Context, ln net.Listener, app *endpoints.App) error {
	r := chi.NewRouter()
	r.NotFound(func(w http.ResponseWriter, _ *http.Request) {
		endpoints.WriteJSON(w, http.StatusNotFound, endpoints.NotFound)
	})
	r.MethodNotAllowed(func(w http.ResponseWriter, _ *http.Request) {
		endpoints.WriteJSON(w, http.StatusMethodNotAllowed, endpoints.NotAllowed)
	})
	r.Get(endpoints.EmptyPath, func(w http.ResponseWriter, _ *http.Request) { endpoints.WriteJSON(w, http.StatusOK, app.Empty()) })
	r.Post(endpoints.ValidatePath, app.ServeValidate)
	r.Get(endpoints.ItemsPrefix+"{id}", func(w http.ResponseWriter, r *http.Request) {
		code, out := app.Item(r.Context(), chi.URLParam(r, "id"))
		endpoints.WriteJSON(w, code, out)
	})
	r.Get(endpoints.HealthPath, func(w http.ResponseWriter, _ *http.Request) { endpoints.WriteJSON(w, http.StatusOK, app.Health()) })
	r.Method(http.MethodGet, endpoints.MetricsPath, endpoints.Metrics)

	srv := endpoints.HTTPServer(r)
	return endpoints.ServeUntil(ctx, func() error { return srv.Serve(ln) }, srv.Shutdown)
}
