// shared_body_buffer: reads every body into one package-level bytes.Buffer to save an allocation: concurrent POSTs read and validate each other's bytes
// vi: đọc mọi body vào một bytes.Buffer cấp package cho đỡ một lần cấp phát: các POST đồng thời đọc và validate nhầm byte của nhau

//go:build !solution

package main

import (
	"bytes"
	"context"
	"net"
	"net/http"

	"github.com/peakload/workshop/internal/given/server"

	"github.com/go-chi/chi/v5"
	"github.com/peakload/workshop/internal/given/endpoints"
)

// serveYours is the framework you add: FRAMEWORK=yours.
func serveYours(ctx context.Context, ln net.Listener, app *endpoints.App) error {
	r := chi.NewRouter()
	r.NotFound(func(w http.ResponseWriter, _ *http.Request) {
		endpoints.WriteJSON(w, http.StatusNotFound, endpoints.NotFound)
	})
	r.MethodNotAllowed(func(w http.ResponseWriter, _ *http.Request) {
		endpoints.WriteJSON(w, http.StatusMethodNotAllowed, endpoints.NotAllowed)
	})
	r.Get(endpoints.EmptyPath, func(w http.ResponseWriter, _ *http.Request) { endpoints.WriteJSON(w, http.StatusOK, app.Empty()) })
	r.Post(endpoints.ValidatePath, func(w http.ResponseWriter, r *http.Request) {
		bodyBuf.Reset()
		_, err := bodyBuf.ReadFrom(http.MaxBytesReader(w, r.Body, server.BodyLimit))
		body := bodyBuf.Bytes()
		if err != nil {
			endpoints.WriteJSON(w, http.StatusRequestEntityTooLarge, endpoints.TooLarge)
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
	return endpoints.ServeUntil(ctx, func() error { return srv.Serve(ln) }, srv.Shutdown)
}

var bodyBuf bytes.Buffer
