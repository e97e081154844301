// handwritten_handler: no router at all: one http.Handler that switches on the path (the row then measures net/http without a mux)
// vi: không có router nào: một http.Handler switch theo path (khi đó hàng này đo net/http không có mux)

//go:build !solution

package main

import (
	"context"
	"net"
	"net/http"
	"strings"

	"github.com/peakload/workshop/internal/given/endpoints"
)

// serveYours is the framework you add: FRAMEWORK=yours.
func serveYours(ctx context.Context, ln net.Listener, app *endpoints.App) error {
	srv := endpoints.HTTPServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		route, id, isItem := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
		switch {
		case r.URL.Path == endpoints.EmptyPath && r.Method == http.MethodGet:
			endpoints.WriteJSON(w, http.StatusOK, app.Empty())
		case r.URL.Path == endpoints.ValidatePath && r.Method == http.MethodPost:
			body, err := endpoints.ReadBody(w, r)
			if err != nil {
				endpoints.WriteJSON(w, http.StatusRequestEntityTooLarge, endpoints.TooLarge)
				return
			}
			code, out := app.Validate(body)
			endpoints.WriteJSON(w, code, out)
		case isItem && "/"+route+"/" == endpoints.ItemsPrefix && r.Method == http.MethodGet:
			code, out := app.Item(r.Context(), id)
			endpoints.WriteJSON(w, code, out)
		case r.URL.Path == endpoints.HealthPath && r.Method == http.MethodGet:
			endpoints.WriteJSON(w, http.StatusOK, app.Health())
		case r.URL.Path == endpoints.MetricsPath && r.Method == http.MethodGet:
			endpoints.Metrics.ServeHTTP(w, r)
		case known(r.URL.Path):
			endpoints.WriteJSON(w, http.StatusMethodNotAllowed, endpoints.NotAllowed)
		default:
			endpoints.WriteJSON(w, http.StatusNotFound, endpoints.NotFound)
		}
	}))
	return endpoints.ServeUntil(ctx, func() error { return srv.Serve(ln) }, srv.Shutdown)
}
