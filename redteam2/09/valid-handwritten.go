// valid: a hand-written http.Handler (a switch on the path, then on the method) under endpoints.HTTPServer

//go:build !solution

package main

import (
	"context"
	"net"
	"net/http"
	"strings"

	"github.com/peakload/workshop/internal/given/endpoints"
)

// yours routes by hand: no framework, no ServeMux.
type yours struct{ app *endpoints.App }

func (y yours) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	switch {
	case p == endpoints.EmptyPath:
		y.only(w, r, http.MethodGet, func() { endpoints.WriteJSON(w, http.StatusOK, y.app.Empty()) })
	case p == endpoints.ValidatePath:
		y.only(w, r, http.MethodPost, func() {
			body, err := endpoints.ReadBody(w, r)
			if err != nil {
				endpoints.WriteJSON(w, http.StatusRequestEntityTooLarge, endpoints.TooLarge)
				return
			}
			code, out := y.app.Validate(body)
			endpoints.WriteJSON(w, code, out)
		})
	case p == endpoints.HealthPath:
		y.only(w, r, http.MethodGet, func() { endpoints.WriteJSON(w, http.StatusOK, y.app.Health()) })
	case p == endpoints.MetricsPath:
		y.only(w, r, http.MethodGet, func() { endpoints.Metrics.ServeHTTP(w, r) })
	case strings.HasPrefix(p, endpoints.ItemsPrefix) && !strings.Contains(p[len(endpoints.ItemsPrefix):], "/"):
		y.only(w, r, http.MethodGet, func() {
			code, out := y.app.Item(r.Context(), p[len(endpoints.ItemsPrefix):])
			endpoints.WriteJSON(w, code, out)
		})
	default:
		endpoints.WriteJSON(w, http.StatusNotFound, endpoints.NotFound)
	}
}

// only runs serve for method, and answers a JSON 405 to any other.
func (yours) only(w http.ResponseWriter, r *http.Request, method string, serve func()) {
	if r.Method != method && !(method == http.MethodGet && r.Method == http.MethodHead) {
		endpoints.WriteJSON(w, http.StatusMethodNotAllowed, endpoints.NotAllowed)
		return
	}
	serve()
}

func serveYours(ctx context.Context, ln net.Listener, app *endpoints.App) error {
	srv := endpoints.HTTPServer(yours{app})
	return endpoints.ServeUntil(ctx, func() error { return srv.Serve(ln) }, srv.Shutdown)
}
