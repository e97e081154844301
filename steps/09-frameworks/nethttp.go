package main

import (
	"context"
	"net"
	"net/http"
	"strings"

	"github.com/peakload/workshop/internal/given/endpoints"
)

// serveNetHTTP is the standard library alone: http.ServeMux with Go 1.22's
// method and wildcard patterns, no framework.
func serveNetHTTP(ctx context.Context, ln net.Listener, app *endpoints.App) error {
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+endpoints.EmptyPath, func(w http.ResponseWriter, r *http.Request) {
		endpoints.WriteJSON(w, http.StatusOK, app.Empty())
	})
	mux.HandleFunc("POST "+endpoints.ValidatePath, app.ServeValidate)
	mux.HandleFunc("GET "+endpoints.ItemsPrefix+"{id}", func(w http.ResponseWriter, r *http.Request) {
		code, body := app.Item(r.Context(), r.PathValue("id"))
		endpoints.WriteJSON(w, code, body)
	})
	mux.HandleFunc("GET "+endpoints.HealthPath, func(w http.ResponseWriter, r *http.Request) {
		endpoints.WriteJSON(w, http.StatusOK, app.Health())
	})
	mux.Handle("GET "+endpoints.MetricsPath, endpoints.Metrics)
	mux.Handle("GET /debug/pprof/", debugHandler)
	// Everything else: ServeMux would answer plain text; we answer JSON.
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if known(r.URL.Path) {
			endpoints.WriteJSON(w, http.StatusMethodNotAllowed, endpoints.NotAllowed)
			return
		}
		endpoints.WriteJSON(w, http.StatusNotFound, endpoints.NotFound)
	})

	srv := endpoints.HTTPServer(mux)
	return endpoints.ServeUntil(ctx, func() error { return srv.Serve(ln) }, srv.Shutdown)
}

// known reports whether a path is one of the app's routes (for 405 vs 404).
func known(path string) bool {
	switch path {
	case endpoints.EmptyPath, endpoints.ValidatePath, endpoints.HealthPath, endpoints.MetricsPath:
		return true
	}
	return strings.HasPrefix(path, endpoints.ItemsPrefix)
}
