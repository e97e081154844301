// servemux_copy: nethttp.go copied under another name: http.ServeMux routes it, the same row as nethttp
// vi: chép nethttp.go sang tên khác: vẫn route bằng http.ServeMux, nên đo ra đúng hàng của nethttp

//go:build !solution

package main

import (
	"context"
	"net"
	"net/http"

	"github.com/peakload/workshop/internal/given/endpoints"
)

// serveYours is the framework you add: FRAMEWORK=yours.
func serveYours(ctx context.Context, ln net.Listener, app *endpoints.App) error {
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+endpoints.EmptyPath, func(w http.ResponseWriter, r *http.Request) {
		endpoints.WriteJSON(w, http.StatusOK, app.Empty())
	})
	mux.HandleFunc("POST "+endpoints.ValidatePath, func(w http.ResponseWriter, r *http.Request) {
		body, err := endpoints.ReadBody(w, r)
		if err != nil {
			endpoints.WriteJSON(w, http.StatusRequestEntityTooLarge, endpoints.TooLarge)
			return
		}
		code, out := app.Validate(body)
		endpoints.WriteJSON(w, code, out)
	})
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
