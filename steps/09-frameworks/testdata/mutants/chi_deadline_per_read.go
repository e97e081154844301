// chi_deadline_per_read: the shell's timeouts, but each read of the connection pushes its read deadline to now + the read timeout ("idle means no byte for 15 s"): a client sending a byte every few ms holds its connection forever
// vi: các timeout của vỏ server, nhưng mỗi lần đọc connection lại đẩy read deadline ra now + read timeout ("idle nghĩa là 15 s không có byte nào"): client cứ vài ms gửi một byte là giữ connection mãi

//go:build !solution

package main

import (
	"context"
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
	return endpoints.ServeUntil(ctx, func() error { return srv.Serve(pushing{ln}) }, srv.Shutdown)
}

// pushing hands out connections whose every read restarts the read timeout.
type pushing struct{ net.Listener }

func (l pushing) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return pushed{c}, nil
}

type pushed struct{ net.Conn }

func (c pushed) Read(b []byte) (int, error) {
	_ = c.SetReadDeadline(time.Now().Add(server.ReadTimeout))
	return c.Conn.Read(b)
}
