package endpoints

import (
	"context"
	"errors"
	"io"
	"net/http"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/peakload/workshop/internal/given/metrics"
	"github.com/peakload/workshop/internal/given/server"
)

// Metrics is the /metrics every framework mounts (net/http's interface;
// echo and fasthttp adapt it). The bench reads it before and after each
// run, never during.
var Metrics = promhttp.HandlerFor(metrics.Registry, promhttp.HandlerOpts{})

// HTTPServer is a net/http server with the shell's timeouts
// (server.SetTimeouts), for the frameworks built on net/http (ServeMux, chi…).
func HTTPServer(h http.Handler) *http.Server {
	s := &http.Server{Handler: h}
	server.SetTimeouts(s)
	return s
}

// WriteJSON writes a JSON response through net/http.
func WriteJSON(w http.ResponseWriter, code int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_, _ = w.Write(body)
}

// ReadBody reads a request body up to server.BodyLimit; past it, an error (answer 413).
func ReadBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	return io.ReadAll(http.MaxBytesReader(w, r.Body, server.BodyLimit))
}

// ServeValidate is POST /validate as a net/http handler, for the frameworks
// built on net/http (ServeMux, chi…): the body read up to the limit (413
// past it), then Validate. The same for every such framework, so it is
// written once; echo and fasthttp read bodies their own way.
func (a *App) ServeValidate(w http.ResponseWriter, r *http.Request) {
	body, err := ReadBody(w, r)
	if err != nil {
		WriteJSON(w, http.StatusRequestEntityTooLarge, TooLarge)
		return
	}
	code, out := a.Validate(body)
	WriteJSON(w, code, out)
}

// ServeUntil runs serve until it fails or ctx is done, then calls shutdown,
// which stops accepting and lets in-flight requests finish (for up to
// server.WriteTimeout). http.ErrServerClosed — what net/http's Serve returns once
// shut down — is a clean stop, not an error.
func ServeUntil(ctx context.Context, serve func() error, shutdown func(context.Context) error) error {
	errc := make(chan error, 1)
	go func() { errc <- serve() }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), server.WriteTimeout)
	defer cancel()
	if err := shutdown(sctx); err != nil {
		return err
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
