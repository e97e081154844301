package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"

	"github.com/peakload/workshop/internal/endpoints"
)

// serveNetHTTP is the standard library alone: http.ServeMux with Go 1.22's
// method and wildcard patterns, no framework.
func serveNetHTTP(ctx context.Context, ln net.Listener, app *endpoints.App) error {
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+endpoints.EmptyPath, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, app.Empty())
	})
	mux.HandleFunc("POST "+endpoints.ValidatePath, func(w http.ResponseWriter, r *http.Request) {
		body, err := readAll(r)
		if err != nil {
			writeJSON(w, http.StatusRequestEntityTooLarge, endpoints.TooLarge)
			return
		}
		code, out := app.Validate(body)
		writeJSON(w, code, out)
	})
	mux.HandleFunc("GET "+endpoints.ItemsPrefix+"{id}", func(w http.ResponseWriter, r *http.Request) {
		code, body := app.Item(r.Context(), r.PathValue("id"))
		writeJSON(w, code, body)
	})
	mux.HandleFunc("GET "+endpoints.HealthPath, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, app.Health())
	})
	mux.Handle("GET "+endpoints.MetricsPath, metricsHandler)
	mux.Handle("GET /debug/pprof/", debugHandler)
	// Everything else: ServeMux would answer plain text; we answer JSON.
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if known(r.URL.Path) {
			writeJSON(w, http.StatusMethodNotAllowed, endpoints.NotAllowed)
			return
		}
		writeJSON(w, http.StatusNotFound, endpoints.NotFound)
	})

	srv := &http.Server{Handler: mux, ReadHeaderTimeout: readTimeout, ReadTimeout: readTimeout,
		WriteTimeout: writeTimeout, IdleTimeout: idleTimeout}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
	defer cancel()
	return srv.Shutdown(sctx)
}

// writeJSON writes a JSON response.
func writeJSON(w http.ResponseWriter, code int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_, _ = w.Write(body)
}

// readAll reads a request body up to the limit; past it, an error (413).
func readAll(r *http.Request) ([]byte, error) {
	return io.ReadAll(http.MaxBytesReader(nil, r.Body, endpoints.BodyLimit))
}

// known reports whether a path is one of the app's routes (for 405 vs 404).
func known(path string) bool {
	switch path {
	case endpoints.EmptyPath, endpoints.ValidatePath, endpoints.HealthPath, endpoints.MetricsPath:
		return true
	}
	return strings.HasPrefix(path, endpoints.ItemsPrefix)
}
