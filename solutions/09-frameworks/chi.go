// Package chirouter is step 9's reference exercise: the same endpoints on
// chi, a router built on net/http's own interfaces (http.Handler, the
// standard middleware shape). It adds routing and middleware chains to
// the standard library and nothing else, so expect net/http's figures:
// the choice between the two is about ergonomics, not speed.
package chirouter

import (
	"context"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/peakload/workshop/internal/endpoints"
	"github.com/peakload/workshop/internal/metrics"
)

// Serve serves app on ln with chi until ctx is done, then shuts down gracefully.
func Serve(ctx context.Context, ln net.Listener, app *endpoints.App) error {
	r := chi.NewRouter()
	r.NotFound(func(w http.ResponseWriter, _ *http.Request) { write(w, http.StatusNotFound, endpoints.NotFound) })
	r.MethodNotAllowed(func(w http.ResponseWriter, _ *http.Request) {
		write(w, http.StatusMethodNotAllowed, endpoints.NotAllowed)
	})
	r.Get(endpoints.EmptyPath, func(w http.ResponseWriter, _ *http.Request) { write(w, http.StatusOK, app.Empty()) })
	r.Post(endpoints.ValidatePath, func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, endpoints.BodyLimit))
		if err != nil {
			write(w, http.StatusRequestEntityTooLarge, endpoints.TooLarge)
			return
		}
		code, out := app.Validate(body)
		write(w, code, out)
	})
	r.Get(endpoints.ItemsPrefix+"{id}", func(w http.ResponseWriter, r *http.Request) {
		code, out := app.Item(r.Context(), chi.URLParam(r, "id"))
		write(w, code, out)
	})
	r.Get(endpoints.HealthPath, func(w http.ResponseWriter, _ *http.Request) { write(w, http.StatusOK, app.Health()) })
	r.Method(http.MethodGet, endpoints.MetricsPath, promhttp.HandlerFor(metrics.Registry, promhttp.HandlerOpts{}))

	srv := &http.Server{Handler: r, ReadHeaderTimeout: 15 * time.Second, ReadTimeout: 15 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: 2 * time.Minute}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return srv.Shutdown(sctx)
}

func write(w http.ResponseWriter, code int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_, _ = w.Write(body)
}
