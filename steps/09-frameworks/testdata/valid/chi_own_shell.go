// chi_own_shell: chi with the shell written out by hand: an http.Server literal with shorter timeouts, a LimitReader body cap (counts chunked bodies too), and its own Shutdown that waits for the requests in flight
// vi: chi với vỏ server tự viết bằng tay: một http.Server literal với timeout ngắn hơn, giới hạn body bằng LimitReader (đếm cả body chunked), và Shutdown riêng chờ các request đang chạy

//go:build !solution

package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/peakload/workshop/internal/given/endpoints"
	"github.com/peakload/workshop/internal/given/server"
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
		body, err := io.ReadAll(io.LimitReader(r.Body, server.BodyLimit+1)) // one byte more: was there more?
		if err != nil || len(body) > server.BodyLimit {
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

	srv := &http.Server{
		Handler:           r,
		ReadHeaderTimeout: 2 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      20 * time.Second,
		IdleTimeout:       time.Minute,
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil { // waits for the requests in flight
		return err
	}
	<-errc // http.ErrServerClosed
	return nil
}
