// WRONG: a JSON helper of its own that calls WriteHeader before setting Content-Type: the header is dropped and every answer goes out as text/plain

//go:build !solution

package main

import (
	"context"
	"net"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/peakload/workshop/internal/given/endpoints"
)

// serveYours serves app's endpoints with chi until ctx is done.
func serveYours(ctx context.Context, ln net.Listener, app *endpoints.App) error {
	r := chi.NewRouter()
	r.NotFound(func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusNotFound, endpoints.NotFound)
	})
	r.MethodNotAllowed(func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusMethodNotAllowed, endpoints.NotAllowed)
	})
	r.Get(endpoints.EmptyPath, func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, app.Empty())
	})
	r.Post(endpoints.ValidatePath, func(w http.ResponseWriter, r *http.Request) {
		body, err := endpoints.ReadBody(w, r)
		if err != nil {
			writeJSON(w, http.StatusRequestEntityTooLarge, endpoints.TooLarge)
			return
		}
		code, out := app.Validate(body)
		writeJSON(w, code, out)
	})
	r.Get(endpoints.ItemsPrefix+"{id}", func(w http.ResponseWriter, r *http.Request) {
		code, out := app.Item(r.Context(), chi.URLParam(r, "id"))
		writeJSON(w, code, out)
	})
	r.Get(endpoints.HealthPath, func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, app.Health())
	})
	r.Method(http.MethodGet, endpoints.MetricsPath, endpoints.Metrics)

	srv := endpoints.HTTPServer(r)
	return endpoints.ServeUntil(ctx, func() error { return srv.Serve(ln) }, srv.Shutdown)
}

// writeJSON writes a JSON answer.
func writeJSON(w http.ResponseWriter, code int, body []byte) {
	w.WriteHeader(code)
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(body)
}
