// chi_close_on_stop: stops with srv.Close instead of Shutdown: the request in flight when ctx ends is cut off with no answer
// vi: dừng bằng srv.Close thay vì Shutdown: request đang chạy khi ctx kết thúc bị cắt ngang, không có câu trả lời

//go:build !solution

package main

import (
	"context"
	"net"
	"net/http"

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
		body, err := endpoints.ReadBody(w, r)
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
	return endpoints.ServeUntil(ctx, func() error { return srv.Serve(ln) }, func(context.Context) error { return srv.Close() })
}
